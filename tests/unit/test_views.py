"""The screens after their split: every link a template builds names a route the app has, and the
list queries keep their filters' meaning."""
import re
from pathlib import Path

from flask import Flask
from sqlalchemy import select
from sqlalchemy.dialects import sqlite

from leadflow.models import Document
from leadflow.services import views
from leadflow.services.search import Filters
from leadflow.web import register_blueprints

ROOT = Path(__file__).resolve().parents[2]
# url_for('documents.show', ...) and the staff navigation's ("credits.index", "Credits") pairs.
ENDPOINT = re.compile(r"""url_for\(\s*['"]([\w.]+)['"]|\(\s*"(\w+\.\w+)",\s*""")


def named_endpoints() -> dict[str, set[str]]:
    found = {}
    for template in (ROOT / "templates").rglob("*.html"):
        for match in ENDPOINT.finditer(template.read_text()):
            found.setdefault(match.group(1) or match.group(2), set()).add(str(template.relative_to(ROOT)))
    return found


def test_every_endpoint_a_template_links_to_is_a_route_of_the_app():
    app = Flask("leadflow", root_path=str(ROOT))
    app.config.update(PUBLIC_BASE_URL="http://127.0.0.1:5000")
    register_blueprints(app)
    routes = set(app.view_functions)
    named = named_endpoints()
    assert "documents.show" in named and "dashboard.index" in named   # the pattern finds both forms
    missing = {endpoint: sorted(where) for endpoint, where in named.items() if endpoint not in routes}
    assert not missing, f"templates link to endpoints no blueprint has: {missing}"


def sql(query) -> str:
    return str(query.compile(dialect=sqlite.dialect(), compile_kwargs={"literal_binds": True}))


def test_a_case_id_that_names_nothing_lists_nothing_rather_than_every_case():
    query = views.workspace_documents(select(Document), {"workspace": "not-a-number"})
    assert "documents.workspace_id = 0" in sql(query)


def test_the_dashboards_filters_become_conditions_and_the_newest_come_first():
    filters = Filters.from_args({"status": "verified", "type": "payslip", "client": "7", "q": "50%_off"})
    text = sql(views.filtered(select(Document), filters))
    assert "documents.status = 'VERIFIED'" in text and "documents.document_type = 'payslip'" in text
    assert "documents.owner_id = 7" in text
    assert "LIKE lower('%50\\%\\_off%') ESCAPE" in text   # a person's % and _ are not wildcards
    assert text.endswith("ORDER BY documents.created_at DESC, documents.id DESC")
