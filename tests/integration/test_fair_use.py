"""Fair use of a brokerage's credits: one client's daily page allowance, and blank PDFs that
the pre-check refuses before anything is reserved."""
import io
from datetime import timedelta
from types import SimpleNamespace

import pytest
from sqlalchemy import func, select

from leadflow.extensions import db
from leadflow.models import CreditReservation, ExtractionJob
from tests.corpus import SAMPLES
from tests.plugins.live import TODAY, Api

STATEMENTS = sorted((SAMPLES / "bank-statements").glob("synthetic_bank_statement_A1_0*.pdf"))[:3]
SETTLED = {"VERIFIED", "REJECTED", "ACTION_REQUIRED"}


@pytest.fixture
def allowance(app):
    """Two pages per client per day, for this test only."""
    before = app.config["CLIENT_DAILY_PAGE_ALLOWANCE"]
    app.config["CLIENT_DAILY_PAGE_ALLOWANCE"] = 2
    yield 2
    app.config["CLIENT_DAILY_PAGE_ALLOWANCE"] = before


def test_a_client_past_the_daily_allowance_waits_until_tomorrow_and_the_admin_sees_who(world, app, live, allowance):
    client = world.client_a.api
    _co_applicant(app, world, "James Beispiel")  # the A1-02 statement is his: the case's, not a stranger's
    read = []
    for path in STATEMENTS[:2]:   # one page each: the whole allowance; the third has more
        document_id = client.upload(path, kind="bank_statement").json()["id"]
        read.append(client.wait_for_status(document_id, SETTLED))
    waiting_id = client.upload(STATEMENTS[2], kind="bank_statement").json()["id"]
    live.drain()

    waiting = client.document(waiting_id)
    assert waiting["status"] == "PENDING"
    assert [n["code"] for n in waiting["verification_notes"]] == ["waiting_for_allowance"]
    assert "more pages today than we read for one client in a day" in waiting["verification_notes"][0]["en"]
    assert "morgen" in waiting["verification_notes"][0]["de"]
    assert "we will read this document tomorrow" in client.get("/portal").text
    assert _reserved_pages(app, waiting_id) == 0, "a waiting document holds no credits"

    neighbour = _another_client_of(app, world, world.brokerage_a, world.workspace_a)
    theirs = neighbour.api.upload(STATEMENTS[0], kind="bank_statement").json()["id"]
    assert neighbour.api.wait_for_status(theirs, SETTLED)["status"] == "VERIFIED", "another client is unaffected"

    page = world.admin_a.api.get("/credits")
    assert page.status_code == 200
    listed = page.text.split('data-testid="at-allowance"', 1)[1].split("</table>", 1)[0]
    assert "Rahul Mustermann" in listed and neighbour.name not in listed
    assert "Rahul Mustermann" not in world.admin_b.api.get("/credits").text.split('data-testid="at-allowance"', 1)[1]

    # The next day the pending sweep offers it again, and it is read.
    from leadflow import clock, sweeps
    clock.travel_to(TODAY + timedelta(days=1))
    with app.app_context():
        assert sweeps.run("pending") >= 1
        db.session.remove()
    done = client.wait_for_status(waiting_id, SETTLED)
    assert done["status"] == "VERIFIED" and done["verification_notes"] != waiting["verification_notes"]
    assert _reserved_pages(app, waiting_id) == done["page_count"] >= 1


def _co_applicant(app, world, name):
    from leadflow.models import User, Workspace
    from leadflow.services import applicants
    with app.app_context():
        applicants.add_co_applicant(db.session, db.session.get(User, world.advisor_a.user_id),
                                    db.session.get(Workspace, world.workspace_a), name=name)
        db.session.remove()


def test_an_all_blank_pdf_is_refused_by_the_pre_check_and_reserves_nothing(world, app, live):
    wallet_before = world.admin_a.api.get("/api/credits").json()
    created = world.client_a.api.upload(_blank_pdf(pages=50), filename="blank.pdf", kind="bank_statement")
    assert created.status_code == 201
    document = world.client_a.api.wait_for_status(created.json()["id"], SETTLED)

    assert document["status"] == "REJECTED" and document["rejection_code"] == "ILLEGIBLE"
    assert [n["code"] for n in document["verification_notes"]] == ["blank_pages"]
    assert _reserved_pages(app, document["id"]) == 0
    with app.app_context():
        assert db.session.scalar(select(func.count(CreditReservation.id))) == 0
        db.session.remove()
    wallet_after = world.admin_a.api.get("/api/credits").json()
    assert wallet_after == wallet_before


def test_a_pdf_with_one_written_page_among_blank_ones_is_read(world, app, live):
    created = world.client_a.api.upload(_blank_pdf(pages=3, text_on=1), filename="mostly-blank.pdf")
    document = world.client_a.api.wait_for_status(created.json()["id"], SETTLED)
    assert "blank_pages" not in [n["code"] for n in document["verification_notes"]]
    assert _reserved_pages(app, document["id"]) == 3, "past the pre-check: reserved and sent to the reader"


def _blank_pdf(pages: int, text_on: int | None = None) -> bytes:
    from reportlab.pdfgen import canvas
    out = io.BytesIO()
    pdf = canvas.Canvas(out)
    for number in range(pages):
        if number == text_on:
            pdf.drawString(72, 720, "Kontoauszug 11/2026, Seite 2")
        pdf.showPage()
    pdf.save()
    return out.getvalue()


def _reserved_pages(app, document_id: str) -> int:
    with app.app_context():
        pages = db.session.scalar(
            select(func.coalesce(func.sum(CreditReservation.pages), 0))
            .join(ExtractionJob, ExtractionJob.id == CreditReservation.job_id)
            .where(ExtractionJob.document_id == document_id))
        db.session.remove()
        return int(pages)


def _another_client_of(app, world, brokerage_id: int, workspace_id: int):
    from leadflow.models import User, WorkspaceMember
    from leadflow.web.auth import create_token
    with app.app_context():
        user = User(email="second-client@a.example", name="Second Client", role="client", brokerage_id=brokerage_id)
        user.set_password("correct horse battery")
        db.session.add(user)
        db.session.flush()
        db.session.add(WorkspaceMember(workspace_id=workspace_id, user_id=user.id))
        db.session.commit()
        person = SimpleNamespace(user_id=user.id, name=user.name, api=Api(world.url, create_token(user)))
        db.session.remove()
        return person
