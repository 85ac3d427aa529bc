"""The lender package against the live app (PostgreSQL, local storage, the in-process worker): an
advisor asks for a complete case's package, watches it build, downloads the ZIP through a signed
link, and the ZIP holds the documents' original files named by checklist item, a cover sheet PDF
saying who, what and how the checks came out, and the extracted data. Incomplete cases, clients and
another brokerage's advisor get a 4xx and nothing is built."""
import io
import json
import re
import threading
import zipfile

import pypdf
import requests

from tests.integration.lender_case import seed_complete_case, update_user
from tests.integration.web_client import post, signed_in
from tests.plugins.live import wait_until

STATUS = re.compile(r'data-testid="package-status" data-status="(\w+)"')
DOWNLOAD = re.compile(r'href="(/packages/[0-9a-f]{32}/download)"')


def _packages(app):
    from leadflow.extensions import db
    from leadflow.models import LenderPackage
    with app.app_context():
        rows = [(p.id, p.status, p.workspace_id) for p in db.session.scalars(db.select(LenderPackage))]
        db.session.remove()
    return rows


def test_a_complete_cases_package_holds_its_documents_a_cover_sheet_and_the_extracted_data(app, world):
    update_user(app, world.client_a.user_id, name="Rahul Mustermann")
    seeded = seed_complete_case(app, world.brokerage_a, world.workspace_a, world.client_a.user_id)
    advisor = signed_in(app, world.advisor_a)

    panel = advisor.get(f"/workspaces/{world.workspace_a}/package").get_data(as_text=True)
    assert 'data-testid="package-build"' in panel
    answer = post(advisor, f"/workspaces/{world.workspace_a}/package")
    assert answer.status_code == 202, answer.get_data(as_text=True)

    def ready():
        text = advisor.get(f"/workspaces/{world.workspace_a}/package").get_data(as_text=True)
        found = STATUS.search(text)
        assert not found or found.group(1) != "failed", text
        return found and found.group(1) == "ready" and text
    text = wait_until(ready, timeout=60, message="the package to be ready")

    link = DOWNLOAD.search(text).group(1)
    redirect = advisor.get(link)
    assert redirect.status_code == 303
    signed = redirect.headers["Location"]
    assert signed.startswith(world.url)
    body = requests.get(signed, timeout=10)
    assert body.status_code == 200
    archive = zipfile.ZipFile(io.BytesIO(body.content))

    names = archive.namelist()
    # Checklist order; within an item its newest documents (the seeded order reversed), each named
    # by the month or year it is for.
    order = ("id_document", "payslip", "bank_statement", "wage_tax_certificate", "tax_assessment",
             "employment_contract")
    period = {"payslip": lambda f: f["period"], "bank_statement": lambda f: f["period_end"][:7],
              "wage_tax_certificate": lambda f: str(f["year"]), "tax_assessment": lambda f: str(f["tax_year"]),
              "employment_contract": lambda f: f["start_date"][:7]}
    expected, originals = [], {}
    for kind in order:
        for made in [m for m in reversed(seeded) if m["type"] == kind]:
            suffix = f"_{period[kind](made['fields'])}" if kind in period else ""
            name = f"{len(expected) + 1:02d}_{kind}{suffix}{made['path'].suffix}"
            expected.append(name)
            originals[name] = made
    assert names == expected + ["00_cover_sheet.pdf", "extracted_data.json"]
    assert names[0] == "01_id_document.jpg" and names[1].startswith("02_payslip_2026-")
    # Each file is the original upload, byte for byte.
    for name, made in originals.items():
        assert archive.read(name) == made["path"].read_bytes(), name

    cover = "\n".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(archive.read("00_cover_sheet.pdf"))).pages)
    flat = " ".join(cover.split())
    assert "Lender package" in flat and "Case of client a" in flat
    assert "Rahul Mustermann" in flat and "client@a.example" in flat and "Alpha Hypotheken" in flat
    for name in names[:10]:
        assert name in flat, name
    assert "Last three payslips" in flat and "Payslip October" in flat and "Personalausweis" in flat
    # The case checks and their outcome, as the case page shows them; the key figures of the payslips.
    assert "Case checks" in flat and "Overall outcome:" in flat
    assert "Same person on every document" in flat and "Net pay arrives on the bank statements" in flat
    assert "Average net pay (last three payslips)" in flat and " EUR" in flat

    data = json.loads(archive.read("extracted_data.json"))
    assert data["case"]["case_name"] == "Case of client a"
    assert data["case"]["clients"] == [{"name": "Rahul Mustermann", "email": "client@a.example"}]
    assert [d["file"] for d in data["documents"]] == names[:10]
    payslip = next(d for d in data["documents"] if d["file"] == names[1])
    assert payslip["fields"]["net"] == originals[names[1]]["fields"]["net"]
    assert payslip["item"] == "payslips" and payslip["type"] == "payslip"
    assert payslip["sha256"] is None or len(payslip["sha256"]) == 64
    assert data["outcome"] in ("ok", "warning", "problem")
    assert {c["key"] for c in data["checks"]} >= {"identity", "employer", "income_credits"}
    assert data["income_summary"]["average_net"]


def test_an_incomplete_case_a_client_and_another_brokerages_advisor_get_no_package(app, world):
    seed_complete_case(app, world.brokerage_a, world.workspace_a, world.client_a.user_id, skip=("tax_assessment",))
    advisor = signed_in(app, world.advisor_a)
    incomplete = post(advisor, f"/workspaces/{world.workspace_a}/package")
    assert incomplete.status_code == 409
    assert "Last tax assessment" in incomplete.get_data(as_text=True)
    # In the advisor's language, as the rest of the panel.
    update_user(app, world.advisor_a.user_id, language="de")
    german = post(signed_in(app, world.advisor_a), f"/workspaces/{world.workspace_a}/package")
    assert german.status_code == 409
    assert "Der Fall ist noch nicht vollständig: Letzter Steuerbescheid" in german.get_data(as_text=True)
    assert "Last tax assessment" not in german.get_data(as_text=True)
    assert 'data-testid="package-blocked"' in advisor.get(f"/workspaces/{world.workspace_a}/package").get_data(as_text=True)
    assert _packages(app) == []

    # Complete now; another brokerage's advisor does not find the case, nor its package.
    seed_complete_case(app, world.brokerage_a, world.workspace_a, world.client_a.user_id)
    other = signed_in(app, world.advisor_b)
    assert post(other, f"/workspaces/{world.workspace_a}/package").status_code == 404
    assert other.get(f"/workspaces/{world.workspace_a}/package").status_code == 404
    client = signed_in(app, world.client_a)
    assert post(client, f"/workspaces/{world.workspace_a}/package").status_code == 403
    assert _packages(app) == []

    assert post(advisor, f"/workspaces/{world.workspace_a}/package").status_code == 202
    package_id = wait_until(lambda: next((p[0] for p in _packages(app) if p[1] == "ready"), None), timeout=60,
                            message="the package to be ready")
    assert other.get(f"/packages/{package_id}/download").status_code == 404
    assert client.get(f"/packages/{package_id}/download").status_code == 403
    assert signed_in(app, world.platform_admin).get(f"/packages/{package_id}/download").status_code == 403
    assert advisor.get(f"/packages/{'0' * 32}/download").status_code == 404
    assert advisor.get(f"/packages/{package_id}/download").status_code == 303
    # The API answers the same way, as JSON.
    assert world.advisor_b.api.post(f"/workspaces/{world.workspace_a}/package",
                                    headers={"Accept": "application/json"}).status_code == 404


def test_two_clicks_at_once_ask_for_one_package(app, world):
    """The first click holds the case between finding no package building and adding its own;
    the second, meanwhile, waits for it and then takes that package rather than making another."""
    from sqlalchemy import select, text

    from leadflow.extensions import db
    from leadflow.models import LenderPackage, User, Workspace
    from leadflow.ports import current_ports
    from leadflow.services import packages
    seed_complete_case(app, world.brokerage_a, world.workspace_a, world.client_a.user_id)
    second: dict = {}

    def click():
        with app.app_context():
            user = db.session.get(User, world.advisor_a.user_id)
            second["id"] = packages.request(db.session, current_ports(), user, world.workspace_a).id
            db.session.remove()

    def waiting_on_a_lock() -> int:
        with db.engine.connect() as connection:
            return connection.execute(text("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                                           "AND datname = current_database()")).scalar()

    with app.app_context():
        db.session.execute(select(Workspace.id).where(Workspace.id == world.workspace_a).with_for_update())
        thread = threading.Thread(target=click)
        thread.start()
        try:
            wait_until(lambda: waiting_on_a_lock() >= 1, timeout=20, message="the second click to wait for the first")
            first = LenderPackage(brokerage_id=world.brokerage_a, workspace_id=world.workspace_a,
                                  requested_by_id=world.advisor_a.user_id, status="building")
            db.session.add(first)
            db.session.commit()
            first_id = first.id
        finally:
            db.session.rollback()
            thread.join(30)
            db.session.remove()
    assert second["id"] == first_id
    assert [p[0] for p in _packages(app)] == [first_id]
    wait_until(lambda: all(status != "building" for _, status, _ in _packages(app)), timeout=60,
               message="the package's build to finish")


def _texts(data: bytes) -> list[str]:
    return [" ".join((page.extract_text() or "").split()) for page in pypdf.PdfReader(io.BytesIO(data)).pages]


def test_a_packets_documents_go_into_the_package_as_their_own_pages_only(app, world):
    """Two of the case's documents came in one upload (a packet): the package holds each as its
    own pages, never the packet's whole file once per document."""
    from leadflow.extensions import db
    from leadflow.models import Document, new_id
    seeded = seed_complete_case(app, world.brokerage_a, world.workspace_a, world.client_a.user_id)
    payslip = next(m for m in seeded if m["path"].name == "synthetic_payslip_A1_03.pdf")
    tax = next(m for m in seeded if m["type"] == "tax_assessment")
    writer = pypdf.PdfWriter()
    for made in (payslip, tax):
        for page in pypdf.PdfReader(made["path"]).pages:
            writer.add_page(page)
    scans = io.BytesIO()
    writer.write(scans)
    payslip_pages = len(pypdf.PdfReader(payslip["path"]).pages)
    tax_pages = len(pypdf.PdfReader(tax["path"]).pages)
    storage = app.extensions["leadflow"].storage
    with app.app_context():
        packet_id = new_id()
        key = f"brokerages/{world.brokerage_a}/documents/{packet_id}/original/scans.pdf"
        storage.put(key, scans.getvalue(), "application/pdf")
        first = db.session.get(Document, payslip["id"])
        db.session.add(Document(id=packet_id, brokerage_id=world.brokerage_a, owner_id=world.client_a.user_id,
                                workspace_id=world.workspace_a, title="Scans", kind="packet", status="VERIFIED",
                                filename="scans.pdf", content_type="application/pdf", size_bytes=len(scans.getvalue()),
                                storage_key=key, verification_notes=[], created_at=first.created_at,
                                updated_at=first.created_at, status_changed_at=first.created_at,
                                page_count=payslip_pages + tax_pages))
        db.session.flush()
        for made, number, pages in ((payslip, 1, (1, payslip_pages)), (tax, 2, (payslip_pages + 1, payslip_pages + tax_pages))):
            document = db.session.get(Document, made["id"])
            document.storage_key, document.filename, document.packet_id = key, "scans.pdf", packet_id
            document.part_number, (document.first_page, document.last_page) = number, pages
        db.session.commit()
        db.session.remove()
    advisor = signed_in(app, world.advisor_a)
    assert post(advisor, f"/workspaces/{world.workspace_a}/package").status_code == 202
    package_id = wait_until(lambda: next((p[0] for p in _packages(app) if p[1] == "ready"), None), timeout=60,
                            message="the package to be ready")
    archive = zipfile.ZipFile(io.BytesIO(requests.get(advisor.get(f"/packages/{package_id}/download")
                                                      .headers["Location"], timeout=10).content))
    names = archive.namelist()
    payslip_name = next(n for n in names if n.endswith(f"payslip_{payslip['fields']['period']}.pdf"))
    tax_name = next(n for n in names if "_tax_assessment" in n)
    assert _texts(archive.read(payslip_name)) == _texts(payslip["path"].read_bytes())
    assert _texts(archive.read(tax_name)) == _texts(tax["path"].read_bytes())
    assert not any(archive.read(n) == scans.getvalue() for n in names)
