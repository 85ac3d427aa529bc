"""Extraction answers with fakes: a delivery is recorded once and applied once; duplicates,
stale and unknown jobs change nothing; the service's failures and an overdue job's fates."""
import json
from datetime import timedelta

import pytest
from sqlalchemy import event

from leadflow.domain.events import DeliveryReceived, ReservationDue, VerificationRequested
from leadflow.domain.lifecycle import JobStatus, RejectionCode, Status
from leadflow.extraction import webhooks
from leadflow.extraction.webhooks import WebhookVerificationError
from leadflow.models import CallbackDelivery, DocumentVersion
from leadflow.services import callbacks, pipeline, version_store
from leadflow.services import versions as versions_service
from tests.unit.fakes import PAYSLIP, events, world  # noqa: F401  (fixtures)


def submitted(world, **document) -> tuple[str, str]:
    """A document the pipeline handed to the reader: (document id, job id)."""
    document_id = world.document(**document)
    assert pipeline.verify_document(world.session, world.ports, document_id, world.brokerage.id) == \
        pipeline.Outcome.SUBMITTED
    return document_id, world.extraction.submitted[-1]["job_id"]


def delivered(world, payload: dict, delivery_id: str = "msg_1") -> callbacks.Receipt:
    body = json.dumps(payload).encode()
    headers = webhooks.headers_for(world.ports.settings["EXTRACTION_WEBHOOK_SECRET"], delivery_id, body)
    return callbacks.receive(world.session, world.ports, headers, body)


def completed(job_id: str, fields: dict | None = None, document_type: str = "payslip", pages: int = 1) -> dict:
    return {"type": "job.completed", "job_id": job_id,
            "data": {"document_type": document_type, "confidence": 0.97, "pages": pages,
                     "content": {"fields": PAYSLIP if fields is None else fields}, "schema": {"type": document_type}}}


def failed(job_id: str, code: str) -> dict:
    return {"type": "job.failed", "job_id": job_id, "data": {"error": {"code": code, "message": "it broke"}}}


def process(world, delivery_id: str = "msg_1") -> str:
    return callbacks.process(world.session, world.ports, delivery_id)


def test_a_signed_delivery_is_recorded_with_its_log_and_its_processing_is_sent_after_commit(world, events):
    document_id, job_id = submitted(world)
    receipt = delivered(world, completed(job_id))
    assert not receipt.duplicate
    recorded = world.session.get(CallbackDelivery, "msg_1")
    # The delivery row is the status log entry: the payload as it came, under the job's document.
    assert (recorded.job_id, recorded.document_id, recorded.payload) == (job_id, document_id, completed(job_id))
    assert events.of(DeliveryReceived) == [DeliveryReceived("msg_1")]


def test_the_same_delivery_twice_is_recorded_once(world, events):
    _, job_id = submitted(world)
    delivered(world, completed(job_id))
    assert delivered(world, completed(job_id)).duplicate
    assert len(events.of(DeliveryReceived)) == 1


def test_a_delivery_with_a_wrong_signature_is_refused_and_nothing_is_recorded(world):
    body = json.dumps(completed("j1")).encode()
    headers = webhooks.headers_for("whsec_" + "QUJD" * 8, "msg_x", body)
    with pytest.raises(WebhookVerificationError):
        callbacks.receive(world.session, world.ports, headers, body)
    assert world.session.get(CallbackDelivery, "msg_x") is None


@pytest.mark.parametrize("body", [b"[1, 2]", b'{"type": "job.completed", "data": {"confidence": NaN}}',
                                  b'{"type": "job.completed", "data": {"pages": Infinity}}',
                                  '{"type": "job.completed", "note": "Straße"}'.encode("latin-1"),
                                  '{"type": "job.completed"}'.encode("utf-16")])
def test_a_signed_body_that_is_not_a_json_object_is_refused(world, body):
    # NaN and Infinity pass Python's json.loads, but PostgreSQL's json column refuses them. JSON
    # between systems is UTF-8, and the log stores the text as it came.
    headers = webhooks.headers_for(world.ports.settings["EXTRACTION_WEBHOOK_SECRET"], "msg_y", body)
    with pytest.raises(ValueError):
        callbacks.receive(world.session, world.ports, headers, body)
    assert world.session.get(CallbackDelivery, "msg_y") is None


def test_a_completed_job_is_verified_stored_as_versions_and_settled_once(world, events):
    document_id, job_id = submitted(world)
    delivered(world, completed(job_id))
    assert process(world) == "applied: VERIFIED"
    document = world.get(document_id)
    assert (document.status, document.document_type, document.page_count) == (Status.VERIFIED, "payslip", 1)
    versions = world.session.query(DocumentVersion).filter_by(document_id=document_id).all()
    assert sorted((v.part, v.number, v.cause) for v in versions) == [("content", 1, "generated"),
                                                                      ("schema", 1, "generated")]
    content, schema = (next(v for v in versions if v.part == part) for part in ("content", "schema"))
    # One object holds the result, written once; both parts' rows point at it.
    assert content.storage_key == schema.storage_key
    assert [k for k in world.storage.objects if "/original/" not in k] == [content.storage_key]
    assert version_store.read(world.storage, content.storage_key, "content") == {"fields": PAYSLIP}
    assert version_store.read(world.storage, schema.storage_key, "schema") == {"type": "payslip"}
    assert world.job(job_id).status == JobStatus.COMPLETED and world.job(job_id).pages_reported == 1
    assert events.of(ReservationDue) == [ReservationDue(job_id=job_id, pages=1)]


def test_applying_a_delivery_again_changes_nothing(world, events):
    document_id, job_id = submitted(world)
    delivered(world, completed(job_id))
    process(world)
    events.clear()
    assert process(world).startswith("already processed")
    assert world.session.query(DocumentVersion).filter_by(document_id=document_id).count() == 2
    assert events.seen == []


def test_a_second_delivery_for_a_finished_job_is_ignored(world):
    _, job_id = submitted(world)
    delivered(world, completed(job_id), "msg_1")
    process(world, "msg_1")
    delivered(world, failed(job_id, "internal"), "msg_2")
    assert process(world, "msg_2") == "ignored: job already completed"


def test_a_delivery_for_a_job_we_never_made_is_ignored(world):
    delivered(world, completed("no-such-job"))
    assert process(world) == "ignored: unknown job"
    assert world.session.get(CallbackDelivery, "msg_1").outcome == "ignored: unknown job"


def test_an_unknown_delivery_id_is_answered_without_a_change(world):
    assert process(world, "never-received") == "unknown delivery"


def test_a_delivery_for_a_job_that_is_no_longer_current_is_stale(world):
    document_id, job_id = submitted(world)
    world.session.execute(pipeline.update(pipeline.Document).where(pipeline.Document.id == document_id)
                          .values(current_job_id="a-newer-job"))
    world.session.commit()
    delivered(world, completed(job_id))
    assert process(world).startswith("ignored: stale job")
    assert world.get(document_id).status == Status.EXTRACTING


def test_a_delivery_that_overtakes_its_submissions_commit_is_tried_again_later(world):
    document_id, job = _submission_not_committed(world)
    delivered(world, completed(job.id))
    with pytest.raises(callbacks.DeliveryTooEarly):
        process(world)
    assert world.session.get(CallbackDelivery, "msg_1").processed_at is None


def test_a_file_the_reader_cannot_read_is_rejected_with_a_reason_the_client_understands(world, events):
    document_id, job_id = submitted(world)
    delivered(world, failed(job_id, "unreadable"))
    assert process(world) == "applied: failed (unreadable)"
    document = world.get(document_id)
    assert (document.status, document.rejection_code) == (Status.REJECTED, RejectionCode.UNREADABLE)
    assert world.job(job_id).status == JobStatus.FAILED
    assert events.of(ReservationDue) == [ReservationDue(job_id=job_id, pages=None)]


def test_a_failure_of_the_reader_itself_is_retried_not_rejected(world):
    document_id, job_id = submitted(world)
    delivered(world, failed(job_id, "internal"))
    assert process(world) == "applied: failed (internal), retry scheduled"
    document = world.get(document_id)
    assert document.status == Status.PENDING and document.rejection_code is None
    assert world.job(document.current_job_id).status == JobStatus.CREATED


def test_an_unclear_type_goes_to_a_person(world):
    document_id, job_id = submitted(world, kind=None)
    delivered(world, completed(job_id, fields={}, document_type="unknown"))
    process(world)
    assert world.get(document_id).status == Status.ACTION_REQUIRED


def test_a_failed_rerun_leaves_the_earlier_result_standing(world):
    document_id = world.extracted()
    from leadflow.services import versions
    versions.reprocess(world.session, world.ports, world.advisor, document_id)
    job_id = world.extraction.submitted[-1]["job_id"]
    delivered(world, failed(job_id, "internal"))
    assert process(world) == "applied: reprocess failed (internal)"
    document = world.get(document_id)
    assert document.status == Status.VERIFIED
    assert document.verification_notes[-1]["code"] == "rerun_failed"


def test_an_overdue_job_the_service_finished_is_applied_from_its_answer(world):
    document_id, job_id = submitted(world)
    world.extraction.answers[job_id] = {**completed(job_id), "status": "completed"}
    world.clock.advance(timedelta(seconds=601))
    assert callbacks.recover_overdue(world.session, world.ports, document_id, job_id) == "applied: VERIFIED"
    assert world.session.get(CallbackDelivery, f"poll-{job_id}-1").outcome == "applied: VERIFIED"


def test_an_overdue_job_the_service_is_still_working_on_gets_another_deadline(world):
    document_id, job_id = submitted(world)
    world.extraction.answers[job_id] = {"status": "running", "job_id": job_id}
    world.clock.advance(timedelta(seconds=601))
    assert callbacks.recover_overdue(world.session, world.ports, document_id, job_id) == "deadline extended"
    assert world.job(job_id).deadline_at == world.clock.now() + timedelta(seconds=600)
    assert world.get(document_id).status == Status.EXTRACTING


def test_an_overdue_job_the_service_lost_is_given_up_and_submitted_again(world, events):
    document_id, job_id = submitted(world)
    world.clock.advance(timedelta(seconds=601))
    events.clear()
    assert callbacks.recover_overdue(world.session, world.ports, document_id, job_id) == "submitted again"
    assert world.job(job_id).status == JobStatus.FAILED
    assert world.get(document_id).status == Status.PENDING
    assert (world.wallet().reserved, world.wallet().balance) == (0, 100), "its reservation is released"
    assert events.of(VerificationRequested) == [VerificationRequested(document_id, world.brokerage.id)]


def test_an_overdue_job_is_not_given_up_while_the_service_is_known_down(world):
    document_id, job_id = submitted(world)
    world.extraction.breaker.failed(), world.extraction.breaker.failed()
    assert callbacks.recover_overdue(world.session, world.ports, document_id, job_id) == "waiting for the service"
    assert world.job(job_id).status == JobStatus.ACCEPTED


def test_an_overdue_job_whose_callback_won_the_race_is_left_to_it(world):
    document_id, job_id = submitted(world)
    delivered(world, completed(job_id))
    process(world)
    assert callbacks.recover_overdue(world.session, world.ports, document_id, job_id) == "finished meanwhile"
    assert world.get(document_id).status == Status.VERIFIED


def test_an_overdue_job_with_its_attempts_spent_becomes_a_failure_of_ours(world):
    world.ports.settings["EXTRACTION_MAX_SUBMIT_ATTEMPTS"] = 1
    document_id, job_id = submitted(world)
    assert callbacks.recover_overdue(world.session, world.ports, document_id, job_id) == "system failure"
    document = world.get(document_id)
    assert document.status == Status.PENDING and document.rejection_code is None
    assert world.audit(document_id)[-1] == pipeline.SYSTEM_RETRY


def test_a_finished_job_cannot_be_finished_again(world):
    from leadflow.services import transitions
    _, job_id = submitted(world)
    assert transitions.finish(world.session, job_id, JobStatus.COMPLETED)
    assert not transitions.finish(world.session, job_id, JobStatus.FAILED), "someone else finished it first"
    world.session.commit()
    assert world.job(job_id).status == JobStatus.COMPLETED


def test_a_recorded_delivery_is_sent_for_processing_by_actor_name(world):
    assert callbacks.enqueue_processing(world.ports, "msg_9")
    assert world.jobs.sent == [("process-delivery", ("msg_9",), {"dedup_key": None, "take_over": False,
                                                                  "delay_ms": None})]


def test_a_duplicate_delivery_inserts_nothing_and_sends_nothing(world, events):
    document_id, job_id = submitted(world)
    delivered(world, completed(job_id))
    events.clear()
    again = delivered(world, completed(job_id, document_type="invoice"))
    assert again.duplicate and events.seen == []
    assert world.session.get(CallbackDelivery, "msg_1").payload == completed(job_id)


def test_a_nudge_applies_its_delivery_and_those_waiting_in_one_transaction(world, events):
    jobs = [submitted(world) for _ in range(3)]
    for n, (_, job_id) in enumerate(jobs):
        delivered(world, completed(job_id), f"msg_{n}")
    delivered(world, completed("no-such-job"), "msg_unknown")
    count_writes = []
    engine = world.session.get_bind()

    def seen(_conn, _cursor, statement, *_args):
        if statement.startswith("INSERT INTO document_status_counts"):
            count_writes.append(statement)

    event.listen(engine, "before_cursor_execute", seen)
    try:
        outcomes = callbacks.process_batch(world.session, world.ports, "msg_1")
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    assert len(count_writes) == 1, "the batch's status moves are counted in one write at its commit"
    assert not world.count(Status.EXTRACTING)
    assert world.count(Status.VERIFIED) == 3
    assert outcomes == {"msg_1": "applied: VERIFIED", "msg_0": "applied: VERIFIED", "msg_2": "applied: VERIFIED",
                        "msg_unknown": "ignored: unknown job"}
    assert [world.get(document_id).status for document_id, _ in jobs] == [Status.VERIFIED] * 3
    assert sorted(e.job_id for e in events.of(ReservationDue)) == sorted(job_id for _, job_id in jobs)
    # The other deliveries' own nudges find nothing left to do.
    assert callbacks.process_batch(world.session, world.ports, "msg_0") == {}


def test_two_deliveries_of_one_job_in_one_batch_store_its_result_once(world, events):
    # The second reads the job and document as the first left them, not as loaded before.
    document_id, job_id = submitted(world)
    delivered(world, completed(job_id), "msg_a")
    delivered(world, completed(job_id, document_type="invoice"), "msg_b")
    outcomes = callbacks.process_batch(world.session, world.ports, "msg_a")
    assert outcomes == {"msg_a": "applied: VERIFIED", "msg_b": "ignored: job already completed"}
    versions = world.session.query(DocumentVersion).filter_by(document_id=document_id).all()
    assert sorted((v.part, v.number) for v in versions) == [("content", 1), ("schema", 1)]
    assert world.get(document_id).document_type == "payslip"
    assert events.of(ReservationDue) == [ReservationDue(job_id=job_id, pages=1)]


def test_a_failure_and_then_a_result_of_one_job_in_one_batch_are_applied_in_the_order_they_came(world):
    document_id, job_id = submitted(world)
    delivered(world, failed(job_id, "unreadable"), "msg_failed")
    delivered(world, completed(job_id), "msg_completed")
    outcomes = callbacks.process_batch(world.session, world.ports, "msg_completed", also=["msg_failed"])
    assert outcomes == {"msg_failed": "applied: failed (unreadable)", "msg_completed": "ignored: job already failed"}
    assert world.get(document_id).status == Status.REJECTED
    assert world.session.query(DocumentVersion).filter_by(document_id=document_id).count() == 0


def test_a_rerun_result_is_a_new_version_of_both_parts_replacing_the_last(world):
    document_id, job_id = submitted(world)
    delivered(world, completed(job_id), "msg_first")
    process(world, "msg_first")
    versions_service.reprocess(world.session, world.ports, world.advisor, document_id)
    rerun = world.extraction.submitted[-1]["job_id"]
    delivered(world, completed(rerun, fields={**PAYSLIP, "net": "2900.00"}), "msg_rerun")
    assert process(world, "msg_rerun").startswith("applied")
    rows = {(v.part, v.number): v for v in world.session.query(DocumentVersion).filter_by(document_id=document_id)}
    assert sorted((part, number, v.cause) for (part, number), v in rows.items()) == [
        ("content", 1, "generated"), ("content", 2, "reprocessed"), ("schema", 1, "generated"),
        ("schema", 2, "reprocessed")]
    for part in ("content", "schema"):
        assert rows[(part, 2)].replaces_id == rows[(part, 1)].id and rows[(part, 2)].job_id == rerun
    assert version_store.read(world.storage, rows[("content", 2)].storage_key, "content")["fields"]["net"] == \
        "2900.00"


def test_a_batch_leaves_a_delivery_that_came_too_early_to_its_own_message(world):
    _, job_id = submitted(world)
    early_document, job = _submission_not_committed(world)
    delivered(world, completed(job.id), "msg_early")
    delivered(world, completed(job_id), "msg_ready")
    assert callbacks.process_batch(world.session, world.ports, "msg_ready") == {"msg_ready": "applied: VERIFIED"}
    assert world.session.get(CallbackDelivery, "msg_early").processed_at is None
    # Its own message learns it came too early, after the others in its batch are committed.
    delivered(world, completed(submitted(world)[1]), "msg_other")
    with pytest.raises(callbacks.DeliveryTooEarly):
        callbacks.process_batch(world.session, world.ports, "msg_early")
    assert world.session.get(CallbackDelivery, "msg_other").outcome == "applied: VERIFIED"
    assert world.session.get(CallbackDelivery, "msg_early").processed_at is None


def test_one_delivery_that_fails_in_a_batch_undoes_neither_the_others_nor_leaves_its_events(world, events,
                                                                                          monkeypatch):
    (first_document, first_job), (second_document, second_job) = submitted(world), submitted(world)
    delivered(world, completed(first_job), "msg_first")
    delivered(world, completed(second_job), "msg_second")
    write, apply = callbacks._write_results, callbacks._apply

    def breaks_after_the_writes(session, results):
        write(session, results)
        raise RuntimeError("disk full after the status writes")

    def breaks_after_moving_the_second(session, ports, delivery):
        outcome = apply(session, ports, delivery)
        if delivery.id == "msg_second":
            raise RuntimeError("disk full after the status write")
        return outcome

    # The set-based write fails after writing: all of it is undone and each is applied on its own.
    monkeypatch.setattr(callbacks, "_write_results", breaks_after_the_writes)
    monkeypatch.setattr(callbacks, "_apply", breaks_after_moving_the_second)
    with pytest.raises(RuntimeError):
        callbacks.process_batch(world.session, world.ports, "msg_second")
    assert world.get(first_document).status == Status.VERIFIED
    assert world.get(second_document).status == Status.EXTRACTING
    assert world.session.get(CallbackDelivery, "msg_second").processed_at is None
    assert [e.job_id for e in events.of(ReservationDue)] == [first_job]
    assert world.session.query(DocumentVersion).filter_by(document_id=second_document).count() == 0
    monkeypatch.undo()
    assert callbacks.process_batch(world.session, world.ports, "msg_second") == {"msg_second": "applied: VERIFIED"}


def test_a_batch_of_plain_results_costs_the_same_statements_whatever_its_size(world, events):
    def statements_to_apply(count: int) -> int:
        jobs = [submitted(world) for _ in range(count)]
        callbacks.record_all(world.session, [checked(world, completed(job_id), f"msg_{count}_{n}")
                                             for n, (_, job_id) in enumerate(jobs)])
        executed = []
        engine = world.session.get_bind()
        listener = lambda *args: executed.append(args[2])  # noqa: E731
        event.listen(engine, "before_cursor_execute", listener)
        try:
            outcomes = callbacks.process_batch(world.session, world.ports, f"msg_{count}_0",
                                               also=[f"msg_{count}_{n}" for n in range(1, count)], limit=count)
        finally:
            event.remove(engine, "before_cursor_execute", listener)
        assert set(outcomes.values()) == {"applied: VERIFIED"} and len(outcomes) == count
        assert [world.get(document_id).status for document_id, _ in jobs] == [Status.VERIFIED] * count
        return len(executed)

    assert statements_to_apply(1) == statements_to_apply(4)


def test_a_batch_of_results_with_different_verdicts_marks_each_delivery_with_its_own(world):
    (clear, clear_job), (unread, unread_job) = submitted(world), submitted(world)
    callbacks.record_all(world.session, [checked(world, completed(clear_job), "msg_clear"),
                                         checked(world, completed(unread_job, fields={}), "msg_unread")])
    callbacks.process_batch(world.session, world.ports, "msg_clear", also=["msg_unread"], limit=2)
    assert (world.get(clear).status, world.get(unread).status) == (Status.VERIFIED, Status.ACTION_REQUIRED)
    marks = {delivery_id: world.session.get(CallbackDelivery, delivery_id, populate_existing=True)
             for delivery_id in ("msg_clear", "msg_unread")}
    assert {delivery_id: delivery.outcome for delivery_id, delivery in marks.items()} == {
        "msg_clear": "applied: VERIFIED", "msg_unread": "applied: ACTION_REQUIRED"}
    assert all(delivery.processed_at is not None for delivery in marks.values())


def test_a_result_whose_document_moved_on_after_the_batch_read_it_is_ignored_and_the_others_applied(world,
                                                                                                    monkeypatch):
    (moving, moving_job), (staying, staying_job) = submitted(world), submitted(world)
    delivered(world, completed(moving_job), "msg_moving")
    delivered(world, completed(staying_job), "msg_staying")
    read = callbacks._plain_results

    def an_admin_moves_one_meanwhile(session, ports, claimed):
        found = read(session, ports, claimed)
        session.execute(pipeline.update(pipeline.Document).where(pipeline.Document.id == moving)
                        .values(status=Status.ACTION_REQUIRED.value))
        return found

    monkeypatch.setattr(callbacks, "_plain_results", an_admin_moves_one_meanwhile)
    outcomes = callbacks.process_batch(world.session, world.ports, "msg_moving", also=["msg_staying"])
    assert outcomes == {"msg_moving": "ignored: document is ACTION_REQUIRED", "msg_staying": "applied: VERIFIED"}
    assert world.session.get(pipeline.ExtractionJob, moving_job).status == JobStatus.ACCEPTED
    assert world.session.query(DocumentVersion).filter_by(document_id=moving).count() == 0
    assert world.get(staying).status == Status.VERIFIED


def test_a_result_that_could_not_be_stored_is_left_for_its_message_and_the_others_applied(world, monkeypatch):
    (first_document, first_job), (second_document, second_job) = submitted(world), submitted(world)
    delivered(world, completed(first_job), "msg_first")
    delivered(world, completed(second_job), "msg_second")
    write = version_store.write

    def storage_refuses_the_second(storage, key, parts):
        if second_document in key:
            raise OSError("storage unavailable")
        write(storage, key, parts)

    monkeypatch.setattr(version_store, "write", storage_refuses_the_second)
    with pytest.raises(OSError):
        callbacks.process_batch(world.session, world.ports, "msg_second", also=["msg_first"])
    assert world.get(first_document).status == Status.VERIFIED
    assert world.get(second_document).status == Status.EXTRACTING
    assert world.session.get(CallbackDelivery, "msg_second").processed_at is None


def checked(world, payload: dict, delivery_id: str) -> callbacks.Delivery:
    body = json.dumps(payload).encode()
    headers = webhooks.headers_for(world.ports.settings["EXTRACTION_WEBHOOK_SECRET"], delivery_id, body)
    return callbacks.check(world.ports.settings, headers, body)


def test_deliveries_received_together_are_recorded_by_one_commit_with_a_nudge_per_batch(world, events):
    jobs = [submitted(world)[1] for _ in range(6)]
    delivered(world, completed(jobs[0]), "msg_0")
    events.clear()
    together = [checked(world, completed(job_id), f"msg_{n}") for n, job_id in enumerate(jobs)]
    # A sender's retry that arrived in the same instant as its first try.
    together.insert(3, checked(world, completed(jobs[2]), "msg_2"))
    statements = []
    engine = world.session.get_bind()

    def executed(*args):
        statements.append(args[2].split()[0])

    event.listen(engine, "before_cursor_execute", executed)
    try:
        receipts = callbacks.record_all(world.session, together)
    finally:
        event.remove(engine, "before_cursor_execute", executed)
    assert statements == ["INSERT"], "all of them in one statement"
    assert [(r.delivery_id, r.duplicate) for r in receipts] == [
        ("msg_0", True), ("msg_1", False), ("msg_2", False), ("msg_2", True), ("msg_3", False), ("msg_4", False),
        ("msg_5", False)]
    # The five new ones in nudges of at most BATCH_SIZE (4), each naming what it applies.
    assert events.of(DeliveryReceived) == [DeliveryReceived("msg_1", ("msg_2", "msg_3", "msg_4")),
                                           DeliveryReceived("msg_5")]
    rows = world.session.query(CallbackDelivery).filter(CallbackDelivery.id != "msg_0").all()
    assert sorted((r.id, r.job_id) for r in rows) == [(f"msg_{n}", jobs[n]) for n in range(1, 6)]


def test_a_nudge_naming_several_deliveries_is_sent_as_one_message(world):
    assert callbacks.enqueue_processing(world.ports, "msg_1", ("msg_2", "msg_3"))
    assert world.jobs.sent == [("process-delivery", ("msg_1", 0, ["msg_2", "msg_3"]),
                                {"dedup_key": None, "take_over": False, "delay_ms": None})]


def test_a_nudge_applies_every_delivery_it_names_and_sends_back_those_too_early(world, events):
    ready = [submitted(world) for _ in range(2)]
    early_document, job = _submission_not_committed(world)
    callbacks.record_all(world.session, [checked(world, completed(ready[0][1]), "msg_a"),
                                         checked(world, completed(job.id), "msg_early"),
                                         checked(world, completed(ready[1][1]), "msg_b")])
    with pytest.raises(callbacks.DeliveryTooEarly) as raised:
        callbacks.process_batch(world.session, world.ports, "msg_a", also=["msg_early", "msg_b"])
    assert raised.value.delivery_ids == ["msg_early"]
    assert [world.get(document_id).status for document_id, _ in ready] == [Status.VERIFIED] * 2
    assert world.session.get(CallbackDelivery, "msg_early").processed_at is None
    # Named again (what the actor sends back) once the job is recorded as accepted, it is applied.
    world.session.execute(pipeline.update(pipeline.ExtractionJob).where(pipeline.ExtractionJob.id == job.id)
                          .values(status=JobStatus.ACCEPTED.value))
    world.session.execute(pipeline.update(pipeline.Document).where(pipeline.Document.id == early_document)
                          .values(status=Status.EXTRACTING.value))
    world.session.commit()
    assert callbacks.process_batch(world.session, world.ports, "msg_early") == {"msg_early": "applied: VERIFIED"}


def test_a_duplicate_costs_one_autocommitted_insert_never_an_error(world):
    _, job_id = submitted(world)
    delivered(world, completed(job_id))
    world.session.commit()
    statements, errors, modes = [], [], []
    engine = world.session.get_bind()

    def executed(connection, _cursor, statement, *_args):
        statements.append(statement.split()[0])
        modes.append(connection.get_execution_options().get("isolation_level"))

    listeners = [(engine, "before_cursor_execute", executed),
                 (engine, "handle_error", lambda context: errors.append(context.original_exception))]
    for target, name, listener in listeners:
        event.listen(target, name, listener)
    try:
        assert delivered(world, completed(job_id)).duplicate
    finally:
        for target, name, listener in listeners:
            event.remove(target, name, listener)
    # One statement that is its own transaction: no BEGIN or COMMIT round trip around it.
    assert statements == ["INSERT"] and modes == ["AUTOCOMMIT"] and errors == []


def _submission_not_committed(world):
    """A document whose job is made but not yet accepted: its submission's commit has not happened."""
    document_id = world.document()
    job = pipeline.ExtractionJob(document_id=document_id, brokerage_id=world.brokerage.id, mode="first",
                                 status=JobStatus.CREATED.value)
    world.session.add(job)
    world.session.flush()
    world.session.execute(pipeline.update(pipeline.Document).where(pipeline.Document.id == document_id)
                          .values(current_job_id=job.id))
    world.session.commit()
    return document_id, job
