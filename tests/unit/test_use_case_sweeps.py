"""The sweeps with fakes: each picks the stuck ids in a bounded batch and hands them to a use case."""
from datetime import timedelta

from sqlalchemy import update

from leadflow import sweeps
from leadflow.domain.lifecycle import JobStatus, Status
from leadflow.models import CallbackDelivery, CreditReservation, Document, ExtractionJob
from leadflow.services import pipeline
from tests.unit.fakes import world  # noqa: F401  (fixture)


def run(world, sweep, batch: int = 10) -> int:
    return sweep(world.session, world.ports, world.clock.now(), batch)


def test_a_document_pending_past_the_threshold_is_sent_once_and_taken_over_when_long_lost(world):
    document_id = world.document()
    assert run(world, sweeps.sweep_pending) == 0, "not stale yet"
    world.clock.advance(timedelta(minutes=6))
    assert run(world, sweeps.sweep_pending) == 1
    assert run(world, sweeps.sweep_pending) == 0, "its message is still live"
    world.clock.advance(timedelta(minutes=5))
    assert run(world, sweeps.sweep_pending) == 1, "past twice the threshold the key is taken over"
    assert world.jobs.sent[-1] == ("verify-document", (document_id, world.brokerage.id),
                                   {"dedup_key": f"doc-verify-{document_id}", "take_over": True, "delay_ms": None})


def test_the_pending_sweep_reads_one_batch_oldest_first(world):
    world.document()
    second = world.document()
    world.session.execute(update(Document).where(Document.id == second)
                          .values(status_changed_at=world.clock.now() - timedelta(hours=1)))
    world.session.commit()
    world.clock.advance(timedelta(minutes=6))
    assert run(world, sweeps.sweep_pending, batch=1) == 1
    assert world.jobs.sent[0][1][0] == second


def test_a_scheduled_retry_is_the_retries_sweeps_and_starts_when_due(world):
    world.extraction.down = True
    world.extraction.breaker.threshold = 100
    document_id = world.document()
    for _ in range(3):
        try:
            pipeline.verify_document(world.session, world.ports, document_id, world.brokerage.id)
        except pipeline.TransientFailure:
            pass
    world.clock.advance(timedelta(minutes=6))
    assert run(world, sweeps.sweep_pending) == 0
    assert run(world, sweeps.sweep_retries) == 1


def test_a_stalled_claim_goes_back_to_pending(world):
    document_id = world.document(status=Status.PROCESSING)
    world.clock.advance(timedelta(minutes=11))
    assert run(world, sweeps.sweep_stalled) == 1
    assert world.get(document_id).status == Status.PENDING
    assert world.audit(document_id) == ["stalled_reset"]


def test_an_overdue_job_is_asked_about_and_dealt_with(world):
    document_id = world.document()
    pipeline.verify_document(world.session, world.ports, document_id, world.brokerage.id)
    job_id = world.extraction.submitted[-1]["job_id"]
    assert run(world, sweeps.sweep_deadline) == 0
    world.clock.advance(timedelta(seconds=601))
    assert run(world, sweeps.sweep_deadline) == 1
    assert world.extraction.asked == [job_id]
    assert world.job(job_id).status == JobStatus.FAILED and world.get(document_id).status == Status.PENDING


def test_a_delivery_left_unprocessed_is_sent_to_be_processed(world):
    world.session.add(CallbackDelivery(id="msg_old", job_id="j", event_type="job.completed", payload={},
                                       received_at=world.clock.now()))
    world.session.commit()
    world.clock.advance(timedelta(minutes=1))
    assert run(world, sweeps.sweep_deliveries) == 1
    assert world.jobs.sent[0][:2] == ("process-delivery", ("msg_old",))


def test_an_open_reservation_of_a_finished_job_is_settled_for_its_pages(world):
    document_id = world.document()
    pipeline.verify_document(world.session, world.ports, document_id, world.brokerage.id)
    job_id = world.extraction.submitted[-1]["job_id"]
    world.session.execute(update(ExtractionJob).where(ExtractionJob.id == job_id)
                          .values(status=JobStatus.COMPLETED.value, pages_reported=1))
    world.session.commit()
    assert run(world, sweeps.sweep_reservations) == 1
    assert world.session.query(CreditReservation).filter_by(job_id=job_id).one().status == "settled"
    assert (world.wallet().balance, world.wallet().reserved, world.wallet().settled) == (99, 0, 1)
    assert run(world, sweeps.sweep_reservations) == 0
