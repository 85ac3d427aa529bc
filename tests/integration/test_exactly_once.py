"""Exactly-once effects from an at-least-once extractor: callbacks, versions, credits (PostgreSQL)."""
import json
import threading
import uuid
from datetime import timedelta

import pytest
import requests
from sqlalchemy import select, text

import tasks

from leadflow import clock, sweeps
from leadflow.billing import ledger
from leadflow.billing import service as billing
from leadflow.extensions import db
from leadflow.extraction import webhooks
from leadflow.models import (CallbackDelivery, CreditReservation, CreditWallet)
from tests.corpus import SAMPLES
from tests.integration.test_failure_matrix import _upload_without_enqueue, audit, extraction_service, stored
from tests.plugins.doubles import HoldingService
from tests.plugins.live import wait_until

PDF = SAMPLES / "bank-statements" / "synthetic_bank_statement_A1_01.pdf"
SETTLED = {"VERIFIED", "REJECTED", "ACTION_REQUIRED"}

# What the extractor reports for synthetic_bank_statement_A1_01.pdf (its .expected.json).
STATEMENT_FIELDS = json.loads((PDF.parent / "synthetic_bank_statement_A1_01.expected.json").read_text())["fields"]


def completed(job_id, pages=1, document_type="bank_statement", fields=None):
    return {"type": "job.completed", "job_id": job_id,
            "data": {"pages": pages, "document_type": document_type, "confidence": 0.95,
                     "content": {"text_chars": 800, "fields": fields or dict(STATEMENT_FIELDS)},
                     "schema": {"type": "object"}}}


def post_callback(world, app, payload, delivery_id=None, *, body=None):
    """Sign and post `payload` as JSON, or `body` as it is (bytes a service wrote itself)."""
    body = json.dumps(payload).encode() if body is None else body
    headers = webhooks.headers_for(app.config["EXTRACTION_WEBHOOK_SECRET"], delivery_id or f"dlv_{uuid.uuid4().hex}",
                                   body)
    return requests.post(world.url + "/api/extraction/callbacks", data=body,
                         headers={**headers, "Content-Type": "application/json"}, timeout=10)


def extracting(world, app, live, service):
    """A document whose job the service accepted and has not reported on."""
    document_id = _upload_without_enqueue(world, app)
    with extraction_service(app, service):
        tasks.verify_document.send(document_id, world.brokerage_a)
        live.drain()
    assert stored(app, document_id).status == "EXTRACTING"
    return document_id, service.jobs[-1]["job_id"]


def versions(world, document_id):
    return world.advisor_a.api.get(f"/api/documents/{document_id}/versions").json()["versions"]


def reservation(app, job_id):
    with app.app_context():
        row = db.session.scalar(select(CreditReservation).where(CreditReservation.job_id == job_id))
        db.session.expunge(row)
        return row


def test_two_identical_deliveries_at_once_have_one_effect(world, app, live):
    document_id, job_id = extracting(world, app, live, HoldingService())
    payload, delivery_id = completed(job_id), f"dlv_{uuid.uuid4().hex}"
    barrier, answers = threading.Barrier(4), []

    def deliver():
        barrier.wait()
        answers.append(post_callback(world, app, payload, delivery_id).status_code)

    threads = [threading.Thread(target=deliver) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=20)
    live.drain()
    assert sorted(answers) == [200, 200, 200, 202]
    assert stored(app, document_id).status == "VERIFIED"
    assert [(v["part"], v["number"]) for v in versions(world, document_id)] == [("content", 1), ("schema", 1)]
    assert [a[0] for a in audit(app, document_id)].count("extraction_completed") == 1
    assert reservation(app, job_id).status == "settled"


def test_two_different_deliveries_of_the_same_result_at_once_have_one_effect(world, app, live):
    document_id, job_id = extracting(world, app, live, HoldingService())
    barrier, answers = threading.Barrier(3), []

    def deliver():
        barrier.wait()
        answers.append(post_callback(world, app, completed(job_id, pages=2)).status_code)

    threads = [threading.Thread(target=deliver) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=20)
    live.drain()
    assert answers == [202, 202, 202]
    assert [(v["part"], v["number"]) for v in versions(world, document_id)] == [("content", 1), ("schema", 1)]
    with app.app_context():
        outcomes = sorted(d.outcome for d in db.session.scalars(select(CallbackDelivery)))
    assert outcomes[0] == "applied: VERIFIED" and all(o.startswith("ignored") for o in outcomes[1:])
    charged = reservation(app, job_id)
    assert (charged.status, charged.pages_charged) == ("settled", 2)


def test_a_reprocess_makes_version_2_pointing_at_version_1_and_never_a_second_first(world, app, live):
    document_id = world.client_a.api.upload(PDF, kind="bank_statement").json()["id"]
    world.client_a.api.wait_for_status(document_id, "VERIFIED")
    live.drain()
    answer = world.advisor_a.api.post(f"/api/documents/{document_id}/reprocess")
    assert answer.status_code == 202, answer.text
    world.client_a.api.wait_for_status(document_id, "VERIFIED")
    live.drain()
    rows = {(v["part"], v["number"]): v for v in versions(world, document_id)}
    assert sorted(rows) == [("content", 1), ("content", 2), ("schema", 1), ("schema", 2)]
    assert rows[("content", 2)]["cause"] == "reprocessed"
    assert rows[("content", 2)]["replaces_id"] == rows[("content", 1)]["id"]
    assert [v["cause"] for v in rows.values()].count("generated") == 2  # one content, one schema
    assert world.advisor_a.api.get(f"/api/documents/{document_id}/content").json()["version"] == 2


def test_a_callback_for_a_job_that_is_no_longer_current_changes_nothing(world, app, live):
    holding = HoldingService()
    document_id, first_job = extracting(world, app, live, holding)
    assert post_callback(world, app, completed(first_job)).status_code == 202
    live.drain()
    with extraction_service(app, holding):
        assert world.advisor_a.api.post(f"/api/documents/{document_id}/reprocess").status_code == 202
    second_job = holding.jobs[-1]["job_id"]
    assert second_job != first_job
    before, trail = world.advisor_a.api.document(document_id), audit(app, document_id)

    late = post_callback(world, app, completed(first_job, document_type="invoice"))
    assert late.status_code == 202
    live.drain()
    assert world.advisor_a.api.document(document_id) == before
    assert audit(app, document_id) == trail
    with app.app_context():
        delivery = db.session.get(CallbackDelivery, late.json()["delivery_id"])
        assert delivery.outcome.startswith("ignored: stale job")


def test_a_callback_for_an_unknown_job_is_recorded_and_ignored_with_a_reason(world, app, live):
    answer = post_callback(world, app, completed("no-such-job"))
    assert answer.status_code == 202
    live.drain()
    with app.app_context():
        assert db.session.get(CallbackDelivery, answer.json()["delivery_id"]).outcome == "ignored: unknown job"


def test_a_settlement_that_fails_after_the_status_commit_is_settled_by_the_sweep(world, app, live, monkeypatch):
    document_id, job_id = extracting(world, app, live, HoldingService())

    def settlement_down(*args):
        raise RuntimeError("billing database hiccup")

    monkeypatch.setattr(billing, "settle_many", settlement_down)   # together,
    monkeypatch.setattr(billing, "settle", settlement_down)        # and then one by one
    post_callback(world, app, completed(job_id, pages=1))
    live.drain()
    assert stored(app, document_id).status == "VERIFIED", "the document is finished all the same"
    assert reservation(app, job_id).status == "open"
    monkeypatch.undo()
    with app.app_context():
        assert sweeps.run("reservations") == 1
        assert billing.check_all(db.session) == {}
    assert reservation(app, job_id).status == "settled"


def test_a_job_that_fails_releases_its_reservation(world, app, live):
    document_id, job_id = extracting(world, app, live, HoldingService())
    with app.app_context():
        balance_before = db.session.get(CreditWallet, world.brokerage_a).balance
    failure = {"type": "job.failed", "job_id": job_id,
               "data": {"error": {"code": "unreadable", "message": "truncated", "retryable": False}}}
    post_callback(world, app, failure)
    live.drain()
    assert stored(app, document_id).status == "REJECTED"
    assert reservation(app, job_id).status == "released"
    with app.app_context():
        assert db.session.get(CreditWallet, world.brokerage_a).balance == balance_before + 1
        assert billing.check_all(db.session) == {}


def test_an_expired_reservation_cannot_be_settled_and_the_sweep_releases_it(world, app, live):
    document_id, job_id = extracting(world, app, live, HoldingService())
    with app.app_context():
        clock.shift(billing.RESERVATION_LIFETIME + timedelta(minutes=1))
        with pytest.raises(ledger.ReservationClosed):
            billing.settle(db.session, job_id, 1)
        db.session.rollback()
        assert sweeps.run("reservations") == 1
    assert reservation(app, job_id).status == "released"


def test_a_correction_makes_a_corrected_version_and_revert_brings_back_the_original(world, app, live):
    document_id = world.client_a.api.upload(PDF, kind="bank_statement").json()["id"]
    world.client_a.api.wait_for_status(document_id, "VERIFIED")
    original = world.advisor_a.api.get(f"/api/documents/{document_id}/content").json()["content"]
    # NaN is no JSON: it would be stored as content that no JSON reader takes back.
    odd = world.advisor_a.api.post(f"/api/documents/{document_id}/corrections", data='{"changes": {"net": NaN}}',
                                   headers={"Content-Type": "application/json"})
    assert odd.status_code == 400, odd.text
    assert world.advisor_a.api.get(f"/api/documents/{document_id}/content").json()["version"] == 1

    corrected = world.advisor_a.api.post(f"/api/documents/{document_id}/corrections",
                                         json={"changes": {"holder": "Rahul Mustermann-Sharma"}})
    assert corrected.status_code == 200, corrected.text
    now = world.advisor_a.api.get(f"/api/documents/{document_id}/content").json()
    assert (now["version"], now["cause"]) == (2, "corrected")
    assert now["content"]["fields"]["holder"] == "Rahul Mustermann-Sharma"

    assert world.advisor_a.api.post(f"/api/documents/{document_id}/revert").status_code == 200
    back = world.advisor_a.api.get(f"/api/documents/{document_id}/content").json()
    assert (back["version"], back["cause"]) == (3, "reverted")
    assert back["content"] == original
    chain = [v for v in versions(world, document_id) if v["part"] == "content"]
    assert [(v["number"], v["cause"]) for v in chain] == [(1, "generated"), (2, "corrected"), (3, "reverted")]
    assert chain[2]["replaces_id"] == chain[1]["id"] and chain[1]["replaces_id"] == chain[0]["id"]
    # A client may read the data but not change it.
    assert world.client_a.api.post(f"/api/documents/{document_id}/revert").status_code == 403


def test_a_customisation_returns_only_the_fields_asked_for_and_keeps_the_verdict(world, app, live):
    document_id = world.client_a.api.upload(PDF, kind="bank_statement").json()["id"]
    world.client_a.api.wait_for_status(document_id, "VERIFIED")
    live.drain()
    asked = world.advisor_a.api.post(f"/api/documents/{document_id}/customise",
                                     json={"output_spec": {"fields": ["iban", "closing_balance"]}})
    assert asked.status_code == 202, asked.text
    world.client_a.api.wait_for_status(document_id, "VERIFIED")
    live.drain()
    content = world.advisor_a.api.get(f"/api/documents/{document_id}/content").json()
    assert content["cause"] == "customised"
    assert list(content["content"]["fields"]) == ["iban", "closing_balance"]
    bad = world.advisor_a.api.post(f"/api/documents/{document_id}/customise", json={"output_spec": {"fields": []}})
    assert bad.status_code == 400


def test_the_status_log_keeps_every_payload_even_when_applying_the_callback_failed(world, app, live, monkeypatch):
    from leadflow.services import callbacks
    document_id, job_id = extracting(world, app, live, HoldingService())
    attempts = []

    def verification_down(ports, delivery, *_read):
        attempts.append(delivery.id)
        raise RuntimeError("verification rules failed to load")

    monkeypatch.setattr(callbacks, "_judge", verification_down)
    payload = completed(job_id)
    answer = post_callback(world, app, payload)
    assert answer.status_code == 202
    wait_until(lambda: attempts, message="a failed attempt to apply the callback")
    with app.app_context():
        logged = db.session.scalars(select(CallbackDelivery).where(CallbackDelivery.document_id == document_id)).all()
        assert [entry.payload for entry in logged] == [payload]
    assert stored(app, document_id).status == "EXTRACTING"
    monkeypatch.undo()
    # The actor's retry applies it once the fault is gone; an operator's replay is then a no-op.
    world.client_a.api.wait_for_status(document_id, "VERIFIED", timeout=30)
    replay = app.test_cli_runner().invoke(args=["leadflow", "replay-delivery", answer.json()["delivery_id"]])
    assert replay.output.startswith("already processed: applied: VERIFIED")


def test_the_status_log_keeps_a_payload_byte_for_byte_as_the_service_wrote_it(world, app, live):
    document_id, job_id = extracting(world, app, live, HoldingService())
    # Keys in the service's order, its spacing, an escaped character: what an auditor compares.
    body = ('{"job_id":  "%s", "type": "job.completed",\n "data": {"pages": 1, "document_type": "bank_statement", '
            '"confidence": 0.95, "content": {"text_chars": 800, "fields": %s, "note": "Stra\\u00dfe"}, '
            '"schema": {"type": "object"}}}' % (job_id, json.dumps(STATEMENT_FIELDS))).encode()
    answer = post_callback(world, app, None, body=body)
    assert answer.status_code == 202
    with app.app_context():
        logged = db.session.execute(select(CallbackDelivery.payload, text("payload::text")).where(
            CallbackDelivery.document_id == document_id)).one()
    assert logged[1] == body.decode()
    assert logged[0] == json.loads(body)
    world.client_a.api.wait_for_status(document_id, "VERIFIED", timeout=30)


def test_a_wallet_that_cannot_cover_a_document_waits_and_goes_on_once_credits_are_granted(world, app, live):
    with app.app_context():
        db.session.execute(db.update(CreditWallet).where(CreditWallet.brokerage_id == world.brokerage_a)
                           .values(balance=0, granted=0))
        db.session.commit()
    document_id = world.client_a.api.upload(PDF, kind="bank_statement").json()["id"]
    live.drain()
    waiting = world.client_a.api.document(document_id)
    assert waiting["status"] == "PENDING"
    assert waiting["verification_notes"][0]["code"] == "waiting_for_credits"
    result = app.test_cli_runner().invoke(args=["leadflow", "grant-credits", str(world.brokerage_a), "5"])
    assert "1 waiting documents enqueued" in result.output
    assert world.client_a.api.wait_for_status(document_id, SETTLED)["status"] == "VERIFIED"
    with app.app_context():
        assert billing.check_all(db.session) == {}


def test_ledger_check_prints_the_invariant_and_fails_on_a_discrepancy(world, app):
    runner = app.test_cli_runner()
    ok = runner.invoke(args=["leadflow", "ledger-check"])
    assert ok.exit_code == 0 and "balanced" in ok.output
    with app.app_context():
        db.session.execute(db.update(CreditWallet).where(CreditWallet.brokerage_id == world.brokerage_b)
                           .values(balance=CreditWallet.balance - 3))
        db.session.commit()
    broken = runner.invoke(args=["leadflow", "ledger-check"])
    assert broken.exit_code == 1
    assert f"brokerage {world.brokerage_b}: balance 997 + open 0 + settled 0 != granted 1000" in broken.output


def test_the_database_refuses_a_negative_balance_and_a_second_reservation_for_a_job(world, app, live):
    from sqlalchemy.exc import IntegrityError
    document_id, job_id = extracting(world, app, live, HoldingService())
    with app.app_context():
        with pytest.raises(IntegrityError):
            db.session.execute(db.update(CreditWallet).values(balance=-1))
            db.session.flush()
        db.session.rollback()
        with pytest.raises(IntegrityError):
            db.session.add(CreditReservation(brokerage_id=world.brokerage_a, job_id=job_id, pages=1,
                                             expires_at=clock.now()))
            db.session.flush()
        db.session.rollback()
        assert billing.reserve(db.session, world.brokerage_a, job_id, 1).job_id == job_id  # idempotent per job


def test_a_type_decided_by_a_person_is_extracted_again_as_that_type_and_verified(world, app, live):
    # A bank statement uploaded as a payslip: the declared kind differs, so a person decides.
    document_id = world.client_a.api.upload(PDF, kind="payslip").json()["id"]
    assert world.client_a.api.wait_for_status(document_id, SETTLED)["status"] == "ACTION_REQUIRED"
    assert world.advisor_a.api.post(f"/api/documents/{document_id}/decision",
                                    json={"document_type": "bank_statement"}).status_code == 403
    decided = world.platform_admin.api.post(f"/api/documents/{document_id}/decision",
                                            json={"document_type": "bank_statement"})
    assert decided.status_code == 200, decided.text
    done = world.client_a.api.wait_for_status(document_id, {"VERIFIED", "REJECTED"})
    assert (done["status"], done["document_type"], done["confidence"]) == ("VERIFIED", "bank_statement", 1.0)
    content = world.advisor_a.api.get(f"/api/documents/{document_id}/content").json()
    assert content["content"]["fields"]["iban"] == STATEMENT_FIELDS["iban"]
    actions = [a[0] for a in audit(app, document_id)]
    assert actions[-3:] == ["type_decided", "extraction_started", "extraction_completed"]
    again = world.platform_admin.api.post(f"/api/documents/{document_id}/decision", json={"reject": "no"})
    assert again.status_code == 409


def test_a_reviewer_can_reject_with_a_reason_the_client_reads(world, app, live):
    document_id = world.client_a.api.upload(PDF, kind="payslip").json()["id"]
    world.client_a.api.wait_for_status(document_id, "ACTION_REQUIRED")
    rejected = world.platform_admin.api.post(f"/api/documents/{document_id}/decision",
                                             json={"reject": "This is a bank statement, not a payslip."})
    assert rejected.status_code == 200
    done = world.client_a.api.document(document_id)
    assert (done["status"], done["rejection_code"]) == ("REJECTED", "REJECTED_BY_REVIEWER")
    assert done["verification_notes"][0]["en"] == "This is a bank statement, not a payslip."


def test_a_callback_that_arrives_before_the_submission_is_committed_is_applied_once_it_is(world, app, live):
    class Instant:
        """Answers before `submit` even returns: the fastest extractor there can be."""

        def healthy(self):
            return True

        def submit(self, **kw):
            answer = post_callback(world, app, completed(kw["job_id"]))
            assert answer.status_code == 202

        def job(self, job_id):
            return None

    document_id = _upload_without_enqueue(world, app)
    with extraction_service(app, Instant()):
        tasks.verify_document.send(document_id, world.brokerage_a)
        assert world.client_a.api.wait_for_status(document_id, SETTLED)["status"] == "VERIFIED"
    assert [a[0] for a in audit(app, document_id)][-2:] == ["extraction_started", "extraction_completed"]


def test_a_reprocess_that_fails_leaves_the_earlier_result_standing_and_charges_nothing(world, app, live):
    holding = HoldingService()
    document_id, first_job = extracting(world, app, live, holding)
    post_callback(world, app, completed(first_job))
    live.drain()
    with extraction_service(app, holding):
        assert world.advisor_a.api.post(f"/api/documents/{document_id}/reprocess").status_code == 202
    rerun = holding.jobs[-1]["job_id"]
    failure = {"type": "job.failed", "job_id": rerun,
               "data": {"error": {"code": "internal_error", "message": "crashed", "retryable": True}}}
    post_callback(world, app, failure)
    live.drain()
    after = world.advisor_a.api.document(document_id)
    assert after["status"] == "VERIFIED" and after["verification_notes"][-1]["code"] == "rerun_failed"
    assert world.advisor_a.api.get(f"/api/documents/{document_id}/content").json()["version"] == 1
    assert reservation(app, rerun).status == "released"


def test_callbacks_are_recorded_once_after_the_database_dropped_the_receipt_connection(world, app, live):
    """The web keeps one connection for receipts: when the database drops it (a restart, a failover),
    at most one try fails, which the sender sends again, and the next writes go through."""
    assert post_callback(world, app, completed("no-such-job"), "dlv_before").status_code == 202
    with app.app_context():
        dropped = db.session.execute(text(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()")).scalar()
        db.session.commit()
    assert dropped >= 1
    answers = [post_callback(world, app, completed("no-such-job"), "dlv_after").status_code for _ in range(3)]
    assert answers.count(202) == 1 and set(answers) <= {500, 503, 202, 200}, answers
    assert answers.index(202) <= 1, f"the connection stayed broken: {answers}"
    assert post_callback(world, app, completed("no-such-job"), "dlv_later").status_code == 202
    with app.app_context():
        recorded = db.session.scalars(select(CallbackDelivery.id).where(
            CallbackDelivery.id.in_(["dlv_before", "dlv_after", "dlv_later"]))).all()
    assert sorted(recorded) == ["dlv_after", "dlv_before", "dlv_later"]
