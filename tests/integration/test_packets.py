"""Packets (issue 40) on the live app (PostgreSQL, the extractor over HTTP, the worker): one upload
of five documents becomes five documents of their own, split exactly once, its pages read and
charged once; a worker killed mid-split and a duplicate or replayed delivery change nothing; an
unsure split waits for a person; a corrected boundary redoes only the two documents it touches."""
import io
import json
import uuid
from datetime import timedelta

import pytest
import requests
from pypdf import PdfReader, PdfWriter
from sqlalchemy import func, select

from leadflow import clock, sweeps
from leadflow.billing import service as billing
from leadflow.extensions import db
from leadflow.extractor import packet_jobs
from leadflow.models import (CallbackDelivery, CreditReservation, CreditWallet, Document,
                             ExtractionJob, Packet)
from leadflow.services import callbacks
from leadflow.services import packets as packet_service
from tests.corpus import SAMPLES
from tests.integration.test_exactly_once import post_callback
from tests.integration.test_failure_matrix import extraction_service
from tests.plugins.doubles import HoldingService
from tests.plugins.live import wait_until

SETTLED = {"VERIFIED", "REJECTED", "ACTION_REQUIRED"}
# Client A's own papers (they name Rahul Mustermann), one after another in one PDF: 9 pages.
FIVE = (("payslips/synthetic_payslip_A1_01.pdf", "payslip", 1, 1),
        ("bank-statements/synthetic_bank_statement_A1_02.pdf", "bank_statement", 2, 3),
        ("payslips/synthetic_payslip_A1_02.pdf", "payslip", 4, 4),
        ("tax/synthetic_tax_assessment_A1_01.pdf", "tax_assessment", 5, 7),
        ("bank-statements/synthetic_bank_statement_A1_03.pdf", "bank_statement", 8, 9))
PAGES = 9


def packet_pdf(files=FIVE) -> bytes:
    writer = PdfWriter()
    for name, *_ in files:
        for page in PdfReader(str(SAMPLES / name)).pages:
            writer.add_page(page)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def upload_packet(person, workspace_id, data=None, **form):
    return person.api.post("/api/documents", files={"file": ("scans.pdf", data or packet_pdf())},
                           data={"split": "auto", "workspace_id": workspace_id, **form})


def wait_for_children(person, packet_id, count, timeout=120.0):
    def settled():
        body = person.api.get(f"/api/documents/{packet_id}/children").json()
        done = [d for d in body["documents"] if d["status"] in SETTLED]
        return body if len(body["documents"]) == count and len(done) == count else None
    return wait_until(settled, timeout=timeout, message=f"{count} children of {packet_id} to settle")


def wallet(app, brokerage_id):
    with app.app_context():
        row = db.session.get(CreditWallet, brokerage_id)
        state = (row.granted, row.balance, row.reserved, row.settled)
        assert billing.check_all(db.session, brokerage_id) == {}
        db.session.remove()
        return state


def counted(app, model, *conditions):
    with app.app_context():
        value = db.session.scalar(select(func.count()).select_from(model).where(*conditions))
        db.session.remove()
        return value


def split_parts(parts=FIVE, unsure=()):
    return [{"first": first, "last": last, "document_type": kind, "confidence": 0.95,
             "boundary_confidence": 0.5 if number in unsure else 0.99, "sure": number not in unsure}
            for number, (_, kind, first, last) in enumerate(parts, start=1)]


def split_answer(job_id, parts):
    return {"type": "job.completed", "job_id": job_id,
            "data": {"pages": parts[-1]["last"], "document_type": "unknown", "confidence": 0.0, "content": None,
                     "schema": None, "error": None, "parts": parts}}


@pytest.fixture
def pushed(app):
    """The status messages the realtime bus carries, as they are."""
    seen, listening = [], [True]

    def heard(message):
        if listening[0]:
            seen.append(message)
    app.extensions["leadflow"].bus.subscribe(heard)
    yield seen
    listening[0] = False


@pytest.fixture
def reads(monkeypatch):
    """Every reading of a file the extractor does (the split's, and any document's it cannot take
    from the pages the split read)."""
    seen = []
    real = packet_jobs.pipeline.read

    def counting(data, **limits):
        reading = real(data, **limits)
        seen.append(len(reading.pages))
        return reading
    monkeypatch.setattr(packet_jobs.pipeline, "read", counting)
    return seen


def test_a_packet_of_five_documents_gives_five_children_with_their_types_slots_and_credits(world, app, live, reads,
                                                                                         pushed):
    before = wallet(app, world.brokerage_a)
    answer = upload_packet(world.client_a, world.workspace_a)
    assert answer.status_code == 201, answer.text
    packet = answer.json()
    assert packet["kind"] == "packet" and packet["packet"]["state"] == "reading"

    body = wait_for_children(world.client_a, packet["id"], 5)
    live.drain()
    children = body["documents"]
    assert [(c["document_type"], c["pages"]["first"], c["pages"]["last"]) for c in children] == [
        (kind, first, last) for _, kind, first, last in FIVE]
    assert all(c["packet_id"] == packet["id"] and c["workspace_id"] == world.workspace_a for c in children)
    assert [p["document_id"] for p in body["packet"]["parts"]] == [c["id"] for c in children]
    assert world.client_a.api.document(packet["id"])["status"] == "VERIFIED"
    # Every live message about a child names its packet, so a page of the packet updates its children.
    about_children = [m for m in pushed if m["document_id"] in {c["id"] for c in children}]
    assert {m["status"] for m in about_children} >= {"PENDING", "VERIFIED"}
    assert all(m.get("packet_id") == packet["id"] for m in about_children)

    # Each page was read once: the split read the file, the documents' jobs took their pages from it.
    assert reads == [PAGES]
    # Credits: the packet's 9 pages charged once, each document its own pages; nothing held.
    granted, balance, reserved, settled = wallet(app, world.brokerage_a)
    assert (granted, reserved, settled) == (before[0], 0, before[3] + PAGES) and balance == before[1] - PAGES
    with app.app_context():
        charged = dict(db.session.execute(
            select(ExtractionJob.document_id, CreditReservation.pages_charged)
            .join(CreditReservation, CreditReservation.job_id == ExtractionJob.id)
            .where(CreditReservation.status == "settled")).all())
        assert charged == {c["id"]: c["pages"]["last"] - c["pages"]["first"] + 1 for c in children}
        # The client's daily allowance counts the packet's pages once.
        assert billing.client_pages_today(db.session, world.client_a.user_id, clock.now()) == PAGES
        db.session.remove()
    # Their checklist slots: the case's items hold the packet's documents, never the packet itself.
    with app.app_context():
        from leadflow.services import checklist
        items = checklist.for_workspace(db.session, app.extensions["leadflow"].storage, world.workspace_a,
                                        world.brokerage_a)
        slotted = {d.id: item.item.key for item in items for d in item.documents}
        db.session.remove()
    assert packet["id"] not in slotted
    assert all(c["id"] in slotted for c in children if c["status"] == "VERIFIED")

    # The pages there are show the packet and its documents as they show any document.
    from tests.integration.web_client import signed_in
    advisor, client = signed_in(app, world.advisor_a), signed_in(app, world.client_a)
    for page in (f"/documents/{packet['id']}", f"/documents/{children[0]['id']}", "/dashboard",
                 f"/workspaces/{world.workspace_a}"):
        assert advisor.get(page).status_code == 200, page
    assert client.get("/portal").status_code == 200

    # Each document's verdict is the one it reaches uploaded alone.
    alone = []
    for name, kind, *_ in FIVE:
        document_id = world.client_a.api.upload(SAMPLES / name, kind=kind,
                                                workspace_id=world.workspace_a).json()["id"]
        alone.append(world.client_a.api.wait_for_status(document_id, SETTLED, timeout=60))
    assert [(c["status"], c["rejection_code"], [n["code"] for n in c["verification_notes"]]) for c in children] == [
        (d["status"], d["rejection_code"], [n["code"] for n in d["verification_notes"]]) for d in alone]
    assert "VERIFIED" in {c["status"] for c in children}


def later():
    """Past the deliveries sweep's grace: a delivery received now is one it picks."""
    return clock.now() + timedelta(minutes=5)


def test_a_worker_killed_mid_split_and_a_duplicate_or_replayed_delivery_change_nothing(world, app, live, monkeypatch):
    service = HoldingService()
    with extraction_service(app, service):
        packet_id = upload_packet(world.client_a, world.workspace_a).json()["id"]
        live.drain()
        job_id = service.jobs[-1]["job_id"]
        assert service.jobs[-1]["mode"] == "split"
        before = wallet(app, world.brokerage_a)
        payload = split_answer(job_id, split_parts())
        delivery_id = f"dlv_{uuid.uuid4().hex}"
        with app.app_context():
            body = json.dumps(payload)
            callbacks.record_all(db.session, [callbacks.Delivery(delivery_id, job_id, payload, body)], nudge=False)
            db.session.commit()

            # The worker dies after the children's rows were written, before the credits moved.
            def killed(*args, **kwargs):
                raise RuntimeError("worker killed mid-split")
            monkeypatch.setattr(packet_service, "_hand_over", killed)
            with pytest.raises(RuntimeError):
                callbacks.process(db.session, app.extensions["leadflow"], delivery_id)
            db.session.rollback()
            db.session.remove()
        assert counted(app, Document, Document.packet_id == packet_id) == 0
        assert wallet(app, world.brokerage_a) == before
        monkeypatch.undo()

        # The deliveries sweep finds it unprocessed and applies it: the children, once.
        with app.app_context():
            sweeps.run("deliveries", now=later())
        live.drain()
        assert counted(app, Document, Document.packet_id == packet_id) == 5
        after_split = wallet(app, world.brokerage_a)
        assert after_split == before  # the packet's pages moved to its documents' reservations

        # The same delivery again, the same answer as a new delivery, and the sweep again.
        assert post_callback(world, app, payload, delivery_id).status_code == 200
        assert post_callback(world, app, payload).status_code == 202
        live.drain()
        with app.app_context():
            sweeps.run("deliveries", now=later())
            outcomes = db.session.scalars(select(CallbackDelivery.outcome).where(
                CallbackDelivery.job_id == job_id)).all()
            db.session.remove()
        live.drain()
    assert counted(app, Document, Document.packet_id == packet_id) == 5
    assert counted(app, ExtractionJob, ExtractionJob.document_id.in_(
        select(Document.id).where(Document.packet_id == packet_id))) == 5
    assert wallet(app, world.brokerage_a) == after_split
    assert sorted(outcomes) == ["applied: split into 5 documents", "ignored: job already completed"]


def test_an_unsure_split_waits_for_a_person_in_the_review_queue_until_confirmed(world, app, live):
    service = HoldingService()
    with extraction_service(app, service):
        packet_id = upload_packet(world.client_a, world.workspace_a).json()["id"]
        live.drain()
        job_id = service.jobs[-1]["job_id"]
        before = wallet(app, world.brokerage_a)
        assert post_callback(world, app, split_answer(job_id, split_parts(unsure=(3,)))).status_code == 202
        live.drain()
        waiting = world.advisor_a.api.document(packet_id)
        assert (waiting["status"], waiting["rejection_code"]) == ("ACTION_REQUIRED", "PACKET_SPLIT_UNSURE")
        assert waiting["verification_notes"][0]["code"] == "packet_unsure"
        assert waiting["verification_notes"][0]["de"] != waiting["verification_notes"][0]["en"]
        assert waiting["packet"]["state"] == "unsure" and not waiting["packet"]["parts"][2]["sure"]
        assert world.advisor_a.api.get(f"/api/documents/{packet_id}/children").json()["documents"] == []
        # Nothing is held for it while it waits; its pages are reserved again per document on confirming.
        assert wallet(app, world.brokerage_a)[2] == before[2] - PAGES
        queue = world.platform_admin.api.get("/review", allow_redirects=False)
        assert queue.status_code == 200 and packet_id in queue.text

        # A client cannot confirm; a reviewer can.
        refused = world.client_a.api.post(f"/api/documents/{packet_id}/split", json={"change": "confirm"})
        assert refused.status_code == 403
        confirmed = world.platform_admin.api.post(f"/api/documents/{packet_id}/split",
                                                  json={"change": "confirm", "revision": waiting["packet"]["revision"]})
        assert confirmed.status_code == 200, confirmed.text
        assert confirmed.json()["state"] == "split" and len(confirmed.json()["children"]) == 5
        live.drain()
        # Each document's job was sent with its own pages; a person's confirmation does not read again.
        sent = [job for job in service.jobs if job["job_id"] != job_id]
        assert sorted(tuple(job["output_spec"]["pages"]) for job in sent) == [(f, l) for _, _, f, l in FIVE]
        assert world.advisor_a.api.document(packet_id)["status"] == "VERIFIED"
        assert wallet(app, world.brokerage_a)[2] == before[2]


def test_a_corrected_boundary_redoes_only_the_two_children_it_touches(world, app, live):
    packet_id = upload_packet(world.client_a, world.workspace_a).json()["id"]
    children = wait_for_children(world.client_a, packet_id, 5)["documents"]
    live.drain()
    before = {c["id"]: (c["status"], c["updated_at"], len(world.advisor_a.api.get(
        f"/api/documents/{c['id']}/versions").json()["versions"])) for c in children}
    revision = world.advisor_a.api.document(packet_id)["packet"]["revision"]

    # The statement (pages 2-3) is said to end at page 2: page 3 goes with the payslip after it.
    moved = world.advisor_a.api.post(f"/api/documents/{packet_id}/split",
                                     json={"change": "move_boundary", "part": 3, "page": 3, "revision": revision})
    assert moved.status_code == 200, moved.text
    assert [(p["first"], p["last"]) for p in moved.json()["parts"]] == [(1, 1), (2, 2), (3, 4), (5, 7), (8, 9)]
    wait_for_children(world.client_a, packet_id, 5)
    live.drain()
    after = {c["id"]: c for c in world.advisor_a.api.get(f"/api/documents/{packet_id}/children").json()["documents"]}
    touched = {children[1]["id"], children[2]["id"]}
    for child_id, (status, updated_at, version_count) in before.items():
        versions = world.advisor_a.api.get(f"/api/documents/{child_id}/versions").json()["versions"]
        if child_id in touched:
            assert len(versions) > version_count
            newest = versions[-1] if versions[-1]["number"] > versions[0]["number"] else versions[0]
            assert newest["cause"] == "resplit" and newest.get("actor_id") in (world.advisor_a.user_id, None)
        else:
            assert (after[child_id]["status"], after[child_id]["updated_at"], len(versions)) == (
                status, updated_at, version_count)
    assert (after[children[1]["id"]]["pages"], after[children[2]["id"]]["pages"]) == (
        {"first": 2, "last": 2}, {"first": 3, "last": 4})
    # A stale revision is refused, and nothing changes.
    stale = world.advisor_a.api.post(f"/api/documents/{packet_id}/split",
                                     json={"change": "merge", "part": 1, "revision": revision})
    assert stale.status_code == 409
    wallet(app, world.brokerage_a)


def pdf_texts(data: bytes) -> list[str]:
    return [" ".join((page.extract_text() or "").split()) for page in PdfReader(io.BytesIO(data)).pages]


def sample_texts(name: str) -> list[str]:
    return pdf_texts((SAMPLES / name).read_bytes())


def downloaded(person, document_id):
    """A document's file through the API: its signed link followed."""
    answer = person.api.get(f"/api/documents/{document_id}/file")
    assert answer.status_code == 200 and answer.history and answer.history[0].status_code == 302, answer.text
    return answer


def test_a_packets_document_downloads_as_its_own_pages_named_by_its_type(world, app, live):
    from tests.integration.web_client import signed_in
    packet_id = upload_packet(world.client_a, world.workspace_a).json()["id"]
    children = wait_for_children(world.client_a, packet_id, 5)["documents"]
    live.drain()
    statement = children[1]
    # Through the API: pages 2-3 only, the statement alone, named after its type.
    answer = downloaded(world.client_a, statement["id"])
    assert pdf_texts(answer.content) == sample_texts(FIVE[1][0])
    assert "bank_statement.pdf" in answer.headers["Content-Disposition"]
    # Through the page's one download route: the same file.
    client = signed_in(app, world.client_a)
    link = client.get(f"/documents/{children[3]['id']}/file")
    assert link.status_code == 302
    assert pdf_texts(requests.get(link.headers["Location"], timeout=10).content) == sample_texts(FIVE[3][0])
    # The packet itself is its whole file, for its brokerage's staff.
    assert len(pdf_texts(downloaded(world.advisor_a, packet_id).content)) == PAGES
    # Another brokerage sees nothing of it.
    assert world.advisor_b.api.get(f"/api/documents/{statement['id']}/file").status_code == 404

    # A corrected boundary cuts again: the statement ends at page 2, the payslip after it takes page 3.
    revision = world.advisor_a.api.document(packet_id)["packet"]["revision"]
    assert world.advisor_a.api.post(f"/api/documents/{packet_id}/split", json={
        "change": "move_boundary", "part": 3, "page": 3, "revision": revision}).status_code == 200
    wait_for_children(world.client_a, packet_id, 5)
    assert pdf_texts(downloaded(world.client_a, statement["id"]).content) == sample_texts(FIVE[1][0])[:1]
    assert pdf_texts(downloaded(world.client_a, children[2]["id"]).content) == (
        sample_texts(FIVE[1][0])[1:] + sample_texts(FIVE[2][0]))
    # A document whose pages went to another has none of its own to give.
    revision = world.advisor_a.api.document(packet_id)["packet"]["revision"]
    assert world.advisor_a.api.post(f"/api/documents/{packet_id}/split", json={
        "change": "merge", "part": 4, "revision": revision}).status_code == 200
    assert world.client_a.api.get(f"/api/documents/{children[4]['id']}/file").status_code == 404
    live.drain()
    wallet(app, world.brokerage_a)


def test_limits_bad_input_and_other_tenants(world, app, live, monkeypatch):
    monkeypatch.setitem(app.config, "MAX_PACKET_PAGES", 8)
    too_long = upload_packet(world.client_a, world.workspace_a)
    assert too_long.status_code == 201
    rejected = world.client_a.api.wait_for_status(too_long.json()["id"], SETTLED)
    assert (rejected["status"], rejected["rejection_code"]) == ("REJECTED", "TOO_MANY_PAGES")
    assert "at most 8" in rejected["verification_notes"][0]["en"]
    monkeypatch.setitem(app.config, "MAX_PACKET_PAGES", 100)

    documents_before = counted(app, Document)
    packets_before = counted(app, Packet)
    for form in ({"split": "maybe"}, {"split": "auto", "kind": "payslip"}):
        answer = world.client_a.api.post("/api/documents", files={"file": ("scans.pdf", packet_pdf())},
                                         data={"workspace_id": world.workspace_a, **form})
        assert answer.status_code == 400, answer.text
    assert world.client_a.api.post("/api/documents?split=sometimes",
                                   files={"file": ("scans.pdf", packet_pdf())}).status_code == 400
    assert (counted(app, Document), counted(app, Packet)) == (documents_before, packets_before)

    # A part longer than a document may be waits for a person, who splits it.
    monkeypatch.setitem(app.config, "MAX_DOCUMENT_PAGES", 2)
    service = HoldingService()
    with extraction_service(app, service):
        packet_id = upload_packet(world.client_a, world.workspace_a).json()["id"]
        live.drain()
        parts = split_parts()
        post_callback(world, app, split_answer(service.jobs[-1]["job_id"], parts))
        live.drain()
        waiting = world.advisor_a.api.document(packet_id)
        assert waiting["verification_notes"][0]["code"] == "packet_part_too_long"
        for change, status in ((({"change": "confirm"}), 400), ({"change": "split", "part": 4, "page": 9}, 400),
                               ({"change": "nothing"}, 400), ({"change": "merge", "part": "1"}, 400)):
            assert world.advisor_a.api.post(f"/api/documents/{packet_id}/split", json=change).status_code == status
        # Another brokerage's advisor does not find it; a document that is no packet has no children.
        assert world.advisor_b.api.post(f"/api/documents/{packet_id}/split",
                                        json={"change": "confirm"}).status_code == 404
        assert world.advisor_b.api.get(f"/api/documents/{packet_id}/children").status_code == 404
        single = world.client_a.api.upload(SAMPLES / FIVE[0][0], kind="payslip").json()["id"]
        assert world.client_a.api.get(f"/api/documents/{single}/children").status_code == 404
        split = world.advisor_a.api.post(f"/api/documents/{packet_id}/split",
                                         json={"change": "split", "part": 4, "page": 7})
        assert split.status_code == 200, split.text
        done = world.advisor_a.api.post(f"/api/documents/{packet_id}/split", json={"change": "confirm"})
        assert done.status_code == 200, done.text
        assert [(p["first"], p["last"]) for p in done.json()["parts"]] == [
            (1, 1), (2, 3), (4, 4), (5, 6), (7, 7), (8, 9)]
        live.drain()
    assert counted(app, Document, Document.packet_id == packet_id) == 6
    wallet(app, world.brokerage_a)


def test_erasing_a_client_erases_their_packet_its_split_and_its_children(world, app, live):
    from leadflow.models import User
    from leadflow.services import erasure
    service = HoldingService()
    with extraction_service(app, service):
        packet_id = upload_packet(world.client_a, world.workspace_a).json()["id"]
        live.drain()
        post_callback(world, app, split_answer(service.jobs[-1]["job_id"], split_parts()))
        live.drain()
        assert counted(app, Document, Document.packet_id == packet_id) == 5
        # Its documents settle (a reader's failure of the file) before the case is erased.
        for job in service.jobs[1:]:
            post_callback(world, app, {"type": "job.failed", "job_id": job["job_id"],
                                       "data": {"error": {"code": "unreadable", "message": "x"}}})
        live.drain()
    with app.app_context():
        admin = db.session.get(User, world.admin_a.user_id)
        erasure.erase_client(db.session, app.extensions["leadflow"], admin, world.client_a.user_id)
        db.session.remove()
    assert counted(app, Document, Document.id == packet_id) == 0
    assert counted(app, Document, Document.packet_id == packet_id) == 0
    assert counted(app, Packet, Packet.document_id == packet_id) == 0
    wallet(app, world.brokerage_a)


def test_a_direct_upload_sent_as_a_packet_is_split_as_one(world, app, live):
    import requests
    data = packet_pdf()
    service = HoldingService()
    with extraction_service(app, service):
        offer = world.client_a.api.post("/api/documents/uploads", json={
            "filename": "scans.pdf", "content_type": "application/pdf", "size": len(data), "split": "auto",
            "workspace_id": world.workspace_a})
        assert offer.status_code == 201, offer.text
        upload = offer.json()["upload"]
        assert requests.put(upload["url"], data=data, headers=upload["headers"], timeout=10).status_code < 300
        done = world.client_a.api.post(f"/api/documents/{offer.json()['document_id']}/complete")
        assert done.status_code == 201, done.text
        assert (done.json()["kind"], done.json()["packet"]["state"]) == ("packet", "reading")
        live.drain()
        assert service.jobs[-1]["mode"] == "split"
        refused = world.client_a.api.post("/api/documents/uploads", json={
            "filename": "scans.pdf", "content_type": "application/pdf", "size": len(data), "split": "yes"})
        assert refused.status_code == 400
