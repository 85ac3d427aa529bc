"""The import graph of `leadflow` and `tasks`: no cycle, and no arrow up the layers.

Read from the source with `ast`, so an import inside a function counts as much as one at the
top, `from package import name` counts as an arrow to the submodule when `name` is one, and a
package's `__init__` is a module like any other. Arrows a module gets only because Python
imports a package before its submodules are not counted: every package would be in a cycle
with its own `__init__` otherwise.
"""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("leadflow", "tasks")
FRAMEWORKS = ("flask", "flask_", "sqlalchemy", "werkzeug", "dramatiq")


def module_files(root: Path, packages=PACKAGES) -> dict[str, Path]:
    """Module name -> file, for every module of `packages` under `root`."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, modules) -> tuple[set[str], set[str]]:
    """(modules of ours, top-level names of others) that `name` imports anywhere in its file."""
    is_package = path.name == "__init__.py"
    ours, theirs = set(), set()

    def target(dotted: str) -> None:
        # The longest prefix that is a module of ours: `import a.b.c` of a function in a.b.c
        # reaches a.b.c; anything else is another distribution's.
        parts = dotted.split(".")
        for end in range(len(parts), 0, -1):
            candidate = ".".join(parts[:end])
            if candidate in modules:
                ours.add(candidate)
                return
        theirs.add(parts[0])

    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[:len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                target(submodule if submodule in modules else source)
    ours.discard(name)  # `from leadflow.x import y` inside leadflow/x.py is not an arrow
    return ours, theirs


def import_graph(root: Path = ROOT, packages=PACKAGES):
    modules = module_files(root, packages)
    graph, external = {}, {}
    for name, path in modules.items():
        graph[name], external[name] = imports_of(name, path, modules)
    return graph, external


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, without recursion)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            advanced = False
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = counter
                    counter += 1
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph.get(successor, ())))))
                    advanced = True
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _in(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def upward_arrows(graph, external) -> list[str]:
    """Arrows that break the layering: leadflow -> tasks, domain/services -> web, domain -> frameworks."""
    wrong = []
    for source, targets in sorted(graph.items()):
        for target in sorted(targets):
            if _in(source, "leadflow") and _in(target, "tasks"):
                wrong.append(f"{source} -> {target} (leadflow must not import the actors)")
            elif (_in(source, "leadflow.domain") or _in(source, "leadflow.services")) and _in(target, "leadflow.web"):
                wrong.append(f"{source} -> {target} (use cases must not import the web layer)")
        if _in(source, "leadflow.domain"):
            for name in sorted(external[source]):
                if name.startswith(FRAMEWORKS):
                    wrong.append(f"{source} -> {name} (the domain imports no framework)")
    return wrong


# --- the real graph ---

def test_the_import_graph_has_no_cycle():
    graph, _ = import_graph()
    assert len(graph) > 50, "the modules of leadflow and tasks were not found"
    assert cycles(graph) == []


def test_no_import_goes_up_a_layer():
    graph, external = import_graph()
    assert upward_arrows(graph, external) == []


# --- the checker finds what it must (on small made-up packages) ---

def _write(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_a_lazy_import_closes_a_cycle(tmp_path):
    _write(tmp_path, {
        "leadflow/__init__.py": "",
        "leadflow/a.py": "from leadflow import b\n",
        "leadflow/b.py": "def later():\n    import leadflow.a\n",
        "leadflow/c.py": "import leadflow.a\n",
    })
    graph, _ = import_graph(tmp_path, ("leadflow",))
    assert cycles(graph) == [["leadflow.a", "leadflow.b"]]


def test_a_package_init_importing_a_submodule_that_imports_it_back_is_a_cycle(tmp_path):
    _write(tmp_path, {
        "leadflow/__init__.py": "",
        "leadflow/storage/__init__.py": "def pick():\n    from leadflow.storage.local import Local\n",
        "leadflow/storage/local.py": "from leadflow.storage import Error\n",
        "leadflow/storage/base.py": "",
        "leadflow/other/__init__.py": "from . import mod\n",
        "leadflow/other/mod.py": "from .. import storage\nfrom .sibling import x\n",
        "leadflow/other/sibling.py": "",
    })
    graph, _ = import_graph(tmp_path, ("leadflow",))
    assert graph["leadflow.other"] == {"leadflow.other.mod"}
    assert graph["leadflow.other.mod"] == {"leadflow.storage", "leadflow.other.sibling"}
    assert cycles(graph) == [["leadflow.storage", "leadflow.storage.local"]]

    (tmp_path / "leadflow/storage/local.py").write_text("from leadflow.storage.base import Error\n")
    graph, _ = import_graph(tmp_path, ("leadflow",))
    assert cycles(graph) == []


def test_arrows_up_the_layers_are_named(tmp_path):
    _write(tmp_path, {
        "leadflow/__init__.py": "",
        "leadflow/domain/__init__.py": "",
        "leadflow/domain/rules.py": "def f():\n    from flask import current_app\nimport sqlalchemy.orm\n",
        "leadflow/services/__init__.py": "",
        "leadflow/services/case.py": "from leadflow.web import pages\n",
        "leadflow/web/__init__.py": "",
        "leadflow/web/pages.py": "import flask\nfrom leadflow.services import case\n",
        "leadflow/effects.py": "def send():\n    import tasks\n",
        "tasks/__init__.py": "from leadflow import effects\n",
    })
    graph, external = import_graph(tmp_path)
    assert upward_arrows(graph, external) == [
        "leadflow.domain.rules -> flask (the domain imports no framework)",
        "leadflow.domain.rules -> sqlalchemy (the domain imports no framework)",
        "leadflow.effects -> tasks (leadflow must not import the actors)",
        "leadflow.services.case -> leadflow.web.pages (use cases must not import the web layer)",
    ]
    assert ["leadflow.effects", "tasks"] in cycles(graph)
