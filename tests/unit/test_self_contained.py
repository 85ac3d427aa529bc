"""A clone stands alone: nothing in tests/, bench/ or the Makefile reads a path outside the
repository, and every sample file is accounted for in tests/samples/PROVENANCE.md.

The scan reads Python with `ast`: a path built from `Path(__file__)` may climb (`.parent`,
`.parents[n]`, also through a name it was assigned to) only as far as the repository's root;
`"..."/ ".."` and literal `../` paths opened or wrapped in a Path leave it; `/work...` and
`../shared` anywhere are a machine's layout, not the repository's. The Makefile is read as text.
"""
import ast
import re
from pathlib import Path

import pytest

from tests.corpus import SAMPLES

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("tests", "bench", "scripts")
MACHINE_PATH = re.compile(r"(^|[\s\"'=(:])/work(/|\b)|\.\./shared\b")
PATH_CALLS = {"Path", "PurePath", "open", "chdir", "listdir", "scandir"}


def _climb(node: ast.AST, names: dict[str, int]) -> int | None:
    """How many directories above the file's own folder `node` points, when it is built from
    `Path(__file__)` (or a name bound to one); None when it is not such a path."""
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name) and func.id in ("Path", "PurePath") and node.args:
            first = node.args[0]
            return 0 if isinstance(first, ast.Name) and first.id == "__file__" else None
        if isinstance(func, ast.Attribute) and func.attr in ("resolve", "absolute"):
            return _climb(func.value, names)
        return None
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.Attribute) and node.attr == "parent":
        below = _climb(node.value, names)
        return None if below is None else below + 1
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "parents":
        below = _climb(node.value.value, names)
        index = node.slice
        if below is None or not (isinstance(index, ast.Constant) and isinstance(index.value, int)):
            return None
        return below + index.value + 1
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        below = _climb(node.left, names)
        if below is None:
            return None
        right = node.right
        if isinstance(right, ast.Constant) and right.value == "..":
            return below + 1
        return below - 1  # a step down; deeper paths are inside whatever held them
    return None


def escapes(source: str, relative: str) -> list[str]:
    """The lines of a Python file (at `relative` inside the repository) that reach outside it."""
    # A file at tests/unit/x.py sits two folders below the root: its path may climb 1 above
    # Path(__file__) (the file itself) plus 2, i.e. parents[2], and no further.
    allowed = len(Path(relative).parts)
    names: dict[str, int] = {}
    found = []
    tree = ast.parse(source)
    prose = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}  # docstrings
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            climb = _climb(node.value, names)
            if climb is not None:
                names[node.targets[0].id] = climb
    for node in ast.walk(tree):
        if isinstance(node, (ast.Attribute, ast.Subscript, ast.BinOp)):
            climb = _climb(node, names)
            if climb is not None and climb > allowed:
                found.append(f"{relative}:{node.lineno}: climbs {climb - allowed} above the repository")
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            first = node.args[0]
            if (name in PATH_CALLS and isinstance(first, ast.Constant) and isinstance(first.value, str)
                    and (first.value == ".." or first.value.startswith("../"))):
                found.append(f"{relative}:{node.lineno}: {name}({first.value!r}) leaves the working folder")
        if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose
                and MACHINE_PATH.search(node.value)):
            found.append(f"{relative}:{node.lineno}: a machine's path {node.value[:60]!r}")
    return found


def text_escapes(text: str, relative: str) -> list[str]:
    """The lines of a Makefile or shell script naming a path outside the repository."""
    outside = re.compile(MACHINE_PATH.pattern + r"|\$\(CURDIR\)/\.\.|(^|[\s=:])\.\./")
    return [f"{relative}:{number}: {line.strip()[:80]}" for number, line in enumerate(text.splitlines(), 1)
            if outside.search(line.split("#", 1)[0])]


def test_nothing_in_tests_bench_or_the_makefile_reads_outside_the_repository():
    found = text_escapes((ROOT / "Makefile").read_text(), "Makefile")
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*")):
            relative = path.relative_to(ROOT).as_posix()
            if (path.is_relative_to(SAMPLES) or "__pycache__" in path.parts or not path.is_file()
                    or path == Path(__file__).resolve()):  # this file's examples leave it on purpose
                continue
            if path.suffix == ".py":
                found += escapes(path.read_text(), relative)
            elif path.suffix == ".sh":
                found += text_escapes(path.read_text(), relative)
    assert found == []


@pytest.mark.parametrize("relative, line", [
    # How tests/conftest.py, bench/_stack.py and tests/extractor/conftest.py once found ../shared/samples
    ("tests/conftest.py", 'SAMPLES = Path(__file__).resolve().parents[2] / "shared" / "samples"'),
    ("bench/_stack.py", 'SAMPLES = Path(__file__).resolve().parents[1].parent / "shared" / "samples"'),
    ("tests/extractor/conftest.py",
     'REPO_ROOT = Path(__file__).resolve().parents[2]\nSAMPLES = REPO_ROOT.parent / "shared" / "samples"'),
    ("tests/unit/test_x.py", 'ROOT = Path(__file__).parent.parent.parent\nOTHER = ROOT / ".."'),
    ("tests/unit/test_x.py", 'DATA = open("../data.csv")'),
    ("tests/unit/test_x.py", 'CORPUS = "/work/shared/samples"'),
    ("tests/unit/test_x.py", 'CORPUS = Path("x") / "../shared/samples"'),
])
def test_the_scan_finds_a_path_that_leaves_the_repository(relative, line):
    assert escapes(line, relative)


@pytest.mark.parametrize("line", [
    'ROOT = Path(__file__).resolve().parents[2]\nDOCS = ROOT / "docs"',
    'HERE = Path(__file__).parent\nSAMPLES = HERE / "samples"',
    'ESCAPES = ["../escaped", "a/../../escaped", "/etc/passwd"]',  # inputs a test rejects
    'WORK = tempfile.mkdtemp(prefix="/tmp/x")',
])
def test_the_scan_lets_paths_inside_the_repository_pass(line):
    assert escapes(line, "tests/unit/test_x.py") == []


def test_the_makefile_scan_finds_a_path_outside():
    assert text_escapes("eval:\n\tpython x.py --samples ../shared/samples\n", "Makefile")
    assert text_escapes("X := $(CURDIR)/../data\n", "Makefile")
    assert text_escapes("# the corpus once lived in ../shared/samples\nrun:\n\tpython x.py\n", "Makefile") == []


def test_every_sample_file_is_in_the_provenance_with_its_source():
    provenance = (SAMPLES / "PROVENANCE.md").read_text()
    # A row names a file in its first column, a generated document's expected file in its second.
    rows = {name: row for row in re.findall(r"^\| `.*$", provenance, re.M)
            for name in re.findall(r"`([^`]+)`", "|".join(row.split("|")[1:3]))}
    files = [path.relative_to(SAMPLES).as_posix() for path in sorted(SAMPLES.rglob("*"))
             if path.is_file() and path.name != "PROVENANCE.md"]
    assert len(files) > 100
    assert [name for name in files if name not in rows] == []
    # Collected files name a licence in their row; generated ones are covered by their section.
    collected = [name for name in files if not Path(name).name.startswith("synthetic_")]
    licences = ("MIT", "BSD", "Apache-2.0", "CC-BY-4.0", "GPL-3.0")
    assert [name for name in collected if not any(licence in rows[name] for licence in licences)] == []
    assert "Receipt scans by Softmatic GmbH, https://github.com/softmatic/vision-data, CC-BY-4.0" in provenance
    assert "test data only" in provenance
