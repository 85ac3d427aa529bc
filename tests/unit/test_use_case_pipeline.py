"""The worker's use cases with fakes of storage, the reader and the job queue: claim, pre-check,
submit, waiting for credits or for an outage, failures of ours, and the sweeps' use cases."""
from datetime import timedelta

import pytest

from leadflow.domain.events import DocumentStatusChanged, ReservationDue, VerificationRequested
from leadflow.domain.lifecycle import JobStatus, RejectionCode, Status
from leadflow.services import pipeline
from tests.unit.fakes import events, pdf, world  # noqa: F401  (fixtures)

Outcome = pipeline.Outcome


def verify(world, document_id, brokerage_id=None):
    return pipeline.verify_document(world.session, world.ports, document_id, brokerage_id or world.brokerage.id)


def test_a_pending_document_is_claimed_checked_and_submitted_once(world, events):
    document_id = world.document()
    assert verify(world, document_id) == Outcome.SUBMITTED
    document = world.get(document_id)
    assert document.status == Status.EXTRACTING
    [submitted] = world.extraction.submitted
    job = world.job(submitted["job_id"])
    assert (job.status, job.mode, document.current_job_id) == (JobStatus.ACCEPTED, "first", job.id)
    assert job.deadline_at == world.clock.now() + timedelta(seconds=600)
    assert submitted["callback_url"] == "http://leadflow.test/api/extraction/callbacks"
    assert world.audit(document_id) == ["claimed", "extraction_started"]
    assert [e.status for e in events.of(DocumentStatusChanged)] == ["PROCESSING", "EXTRACTING"]


def test_submitting_reserves_the_pages_of_the_document(world):
    document_id = world.document(data=pdf(pages=3))
    verify(world, document_id)
    assert (world.wallet().balance, world.wallet().reserved) == (97, 3)
    assert world.get(document_id).page_count == 3


def test_a_second_message_for_the_same_document_does_nothing(world):
    document_id = world.document()
    verify(world, document_id)
    assert verify(world, document_id) == Outcome.SKIPPED_NOT_PENDING
    assert len(world.extraction.submitted) == 1


def test_a_finished_document_is_left_alone(world):
    document_id = world.document(status=Status.VERIFIED)
    assert verify(world, document_id) == Outcome.SKIPPED_TERMINAL
    assert world.extraction.submitted == []


def test_a_message_naming_another_brokerage_is_refused_and_never_retried(world):
    document_id = world.document()
    with pytest.raises(pipeline.TenantMismatch):
        verify(world, document_id, world.other_brokerage.id)
    assert world.get(document_id).status == Status.PENDING


def test_an_unknown_document_is_skipped(world):
    assert verify(world, "0" * 32) == Outcome.SKIPPED_MISSING


@pytest.mark.parametrize("data, code, note", [
    (b"GIF89a not a document", RejectionCode.UNSUPPORTED_FILE, "unsupported_file"),
    (b"%PDF-1.4 truncated and broken", RejectionCode.UNREADABLE, "unreadable"),
    (pdf(pages=6), RejectionCode.TOO_MANY_PAGES, "too_many_pages"),
    (pdf(text=""), RejectionCode.ILLEGIBLE, "blank_pages"),
])
@pytest.mark.parametrize("prechecked", [True, False], ids=["checked at upload", "stored before uploads were checked"])
def test_a_file_that_fails_the_precheck_is_rejected_before_any_credit_is_spent(world, data, code, note, prechecked):
    document_id = world.document(data=data, prechecked=prechecked)
    assert verify(world, document_id) == Outcome.REJECTED
    document = world.get(document_id)
    assert (document.status, document.rejection_code) == (Status.REJECTED, code.value)
    assert [n["code"] for n in document.verification_notes] == [note]
    assert world.extraction.submitted == [] and world.wallet().balance == 100
    assert world.audit(document_id) == ["claimed", "precheck_failed"]


def test_the_worker_reads_no_file_the_upload_checked_and_asks_storage_only_when_unproven(world, events):
    first, second = world.document(data=pdf(pages=2)), world.document(data=pdf(pages=1))
    world.storage.calls.clear()
    assert verify(world, first) == Outcome.SUBMITTED
    assert world.storage.calls == ["head"], "storage not proven up yet: one HEAD of the file, no read"
    assert verify(world, second) == Outcome.SUBMITTED
    assert world.storage.calls == ["head"], "proven up a moment ago: storage is not asked again"
    assert (world.get(first).page_count, world.wallet().reserved) == (2, 3)
    assert world.audit(first) == ["claimed", "extraction_started"]
    assert [e.status for e in events.of(DocumentStatusChanged)] == ["PROCESSING", "EXTRACTING"] * 2


def test_a_checked_file_gone_from_storage_is_rejected_when_storage_is_asked(world):
    document_id = world.document()
    world.storage.objects.clear()
    assert verify(world, document_id) == Outcome.REJECTED
    assert world.get(document_id).rejection_code == RejectionCode.FILE_MISSING
    assert world.extraction.submitted == [] and world.wallet().balance == 100


def test_storage_down_when_asked_about_a_checked_file_leaves_it_pending_until_the_breaker_knows(world):
    document_id = world.document()
    world.storage.down = True
    with pytest.raises(Exception):
        verify(world, document_id)
    # The claim was in the transaction the failure rolled back: nothing happened to the document.
    assert world.get(document_id).status == Status.PENDING and world.audit(document_id) == []
    assert verify(world, document_id) == Outcome.WAITING_FOR_SERVICE
    assert pipeline.known_down(world.ports) and not world.count(Status.PROCESSING)


def test_a_file_stored_before_uploads_were_checked_is_checked_in_storage(world):
    document_id = world.document(data=pdf(pages=3), prechecked=False)
    world.storage.calls.clear()
    assert verify(world, document_id) == Outcome.SUBMITTED
    assert "get" in world.storage.calls and world.get(document_id).page_count == 3


def test_a_file_missing_from_storage_is_rejected(world):
    document_id = world.document(prechecked=False)
    world.storage.objects.clear()
    assert verify(world, document_id) == Outcome.REJECTED
    assert world.get(document_id).rejection_code == RejectionCode.FILE_MISSING


def test_a_file_larger_than_allowed_is_rejected(world):
    world.ports.settings["MAX_UPLOAD_BYTES"] = 100
    document_id = world.document()
    assert verify(world, document_id) == Outcome.REJECTED
    assert world.get(document_id).rejection_code == RejectionCode.FILE_TOO_LARGE


def test_with_no_credits_left_the_document_waits_pending_and_says_why(world):
    world.wallet().balance = 0
    world.session.commit()
    document_id = world.document()
    assert verify(world, document_id) == Outcome.WAITING_FOR_CREDITS
    document = world.get(document_id)
    assert document.status == Status.PENDING
    assert [n["code"] for n in document.verification_notes] == ["waiting_for_credits"]
    assert world.extraction.submitted == []
    # The claim was undone with the refused reservation and written again: the history keeps it.
    assert world.audit(document_id) == ["claimed", "waiting_for_credits"]
    assert world.count(Status.PENDING) == 1 and not world.count(Status.PROCESSING)


def test_granting_credits_sends_the_waiting_documents_on(world, events):
    world.wallet().balance = 0
    world.session.commit()
    waiting = world.document()
    verify(world, waiting)
    events.clear()
    wallet, sent = pipeline.grant_credits(world.session, world.brokerage.id, 50)
    assert (wallet.balance, sent) == (50, 1)
    assert events.of(VerificationRequested) == [VerificationRequested(waiting, world.brokerage.id)]


def test_a_client_past_todays_page_allowance_waits_for_tomorrow(world):
    world.ports.settings["CLIENT_DAILY_PAGE_ALLOWANCE"] = 2
    first, second = world.document(data=pdf(pages=2)), world.document(data=pdf(pages=1))
    assert verify(world, first) == Outcome.SUBMITTED
    assert verify(world, second) == Outcome.WAITING_FOR_ALLOWANCE
    assert world.get(second).status == Status.PENDING
    assert world.audit(second)[-1] == "waiting_for_allowance"


def test_an_advisors_own_upload_has_no_daily_allowance(world):
    world.ports.settings["CLIENT_DAILY_PAGE_ALLOWANCE"] = 1
    document_id = world.document(data=pdf(pages=3), owner=world.advisor)
    assert verify(world, document_id) == Outcome.SUBMITTED


def test_a_refused_submission_goes_back_to_pending_and_is_retried(world):
    world.extraction.down = True
    document_id = world.document()
    with pytest.raises(pipeline.TransientFailure):
        verify(world, document_id)
    document = world.get(document_id)
    assert document.status == Status.PENDING
    assert world.job(document.current_job_id).submit_attempts == 1


def test_once_the_reader_is_known_down_documents_wait_without_spending_an_attempt(world):
    world.extraction.down = True
    for _ in range(2):  # the breaker opens after two failures (the fakes' BREAKER_FAILURES)
        with pytest.raises(pipeline.TransientFailure):
            verify(world, world.document())
    waiting = world.document()
    assert pipeline.known_down(world.ports)
    assert verify(world, waiting) == Outcome.WAITING_FOR_SERVICE
    assert world.get(waiting).status == Status.PENDING and world.audit(waiting) == []
    assert pipeline.wait_for_services_seconds(world.ports) > 0


def test_a_reader_whose_queue_is_full_costs_no_attempt_and_holds_back_the_next_claims(world):
    world.extraction.busy = True
    refused = world.document()
    assert verify(world, refused) == Outcome.WAITING_FOR_CAPACITY
    document = world.get(refused)
    assert document.status == Status.PENDING and world.audit(refused) == ["claimed", "waiting_for_service"]
    assert world.job(document.current_job_id).submit_attempts == 0, "a full queue is not a failed submission"
    assert not pipeline.known_down(world.ports), "a busy reader is up: its breaker stays closed"
    # While the client holds submissions back, a document is not even claimed.
    waiting = world.document()
    assert verify(world, waiting) == Outcome.WAITING_FOR_CAPACITY
    assert world.get(waiting).status == Status.PENDING and world.audit(waiting) == []
    # Room again: the refused document's job (and its reservation) are the ones submitted.
    world.extraction.busy, world.extraction.held_back_seconds = False, 0.0
    assert verify(world, refused) == Outcome.SUBMITTED
    [submitted] = world.extraction.submitted
    assert submitted["job_id"] == document.current_job_id and world.wallet().reserved == 1


def test_storage_down_while_checking_hands_the_claim_back_and_counts_toward_its_breaker(world):
    document_id = world.document(prechecked=False)
    world.storage.down = True
    with pytest.raises(Exception):
        verify(world, document_id)
    assert world.get(document_id).status == Status.PENDING
    assert world.audit(document_id) == ["claimed", "attempt_failed"]
    # The second failure opens the storage breaker: the outage's, not the document's.
    assert verify(world, document_id) == Outcome.WAITING_FOR_SERVICE
    assert world.audit(document_id)[-1] == "waiting_for_service"
    assert pipeline.known_down(world.ports)


def test_submissions_that_keep_failing_become_a_system_retry_not_a_rejection(world, events):
    world.extraction.down = True
    world.extraction.breaker.threshold = 100  # keep trying: this is about the attempts, not the breaker
    document_id = world.document()
    for _ in range(2):
        with pytest.raises(pipeline.TransientFailure):
            verify(world, document_id)
    assert verify(world, document_id) == Outcome.RETRY_SCHEDULED
    document = world.get(document_id)
    assert document.status == Status.PENDING and document.rejection_code is None
    retry = world.job(document.current_job_id)
    assert retry.status == JobStatus.CREATED and retry.deadline_at == world.clock.now() + timedelta(minutes=5)
    assert ReservationDue in {type(e) for e in events.seen}, "the failed job's reservation is released"


def test_a_scheduled_retry_is_not_started_before_its_time(world):
    world.extraction.down = True
    world.extraction.breaker.threshold = 100
    document_id = world.document()
    for _ in range(2):
        with pytest.raises(pipeline.TransientFailure):
            verify(world, document_id)
    verify(world, document_id)
    world.extraction.down = False
    assert verify(world, document_id) == Outcome.NOT_DUE
    world.clock.advance(timedelta(minutes=6))
    assert verify(world, document_id) == Outcome.SUBMITTED


def test_system_retries_spent_hand_the_document_to_a_person(world):
    document_id = world.document(status=Status.PROCESSING)
    for _ in range(2):  # the fakes' SYSTEM_RETRY_DELAYS_MINUTES has two delays
        world.session.execute(pipeline.update(pipeline.Document).where(pipeline.Document.id == document_id)
                              .values(status=Status.PROCESSING.value))
        assert pipeline.system_failure(world.session, world.ports, document_id, Status.PROCESSING,
                                       RejectionCode.SYSTEM_SUBMISSION_FAILED, "test") == Status.PENDING
        world.session.commit()
    world.session.execute(pipeline.update(pipeline.Document).where(pipeline.Document.id == document_id)
                          .values(status=Status.PROCESSING.value))
    assert pipeline.system_failure(world.session, world.ports, document_id, Status.PROCESSING,
                                   RejectionCode.SYSTEM_SUBMISSION_FAILED, "test") == Status.ACTION_REQUIRED
    world.session.commit()
    document = world.get(document_id)
    assert (document.status, document.rejection_code) == (Status.ACTION_REQUIRED, "SYSTEM_SUBMISSION_FAILED")


def test_a_message_whose_retries_are_exhausted_fails_its_job_and_schedules_a_retry(world):
    document_id = world.document()
    verify(world, document_id)
    world.session.execute(pipeline.update(pipeline.Document).where(pipeline.Document.id == document_id)
                          .values(status=Status.PROCESSING.value))
    world.session.commit()
    first_job = world.get(document_id).current_job_id
    assert pipeline.fail_for_good(world.session, world.ports, document_id, world.brokerage.id, "boom")
    assert world.job(first_job).status == JobStatus.FAILED
    assert world.get(document_id).status == Status.PENDING


def test_exhausted_retries_for_a_finished_document_change_nothing(world):
    document_id = world.document(status=Status.VERIFIED)
    assert not pipeline.fail_for_good(world.session, world.ports, document_id, world.brokerage.id, "boom")
    assert world.get(document_id).status == Status.VERIFIED


def test_enqueueing_a_verification_sends_it_by_name_once_per_live_message(world):
    assert pipeline.enqueue_verification(world.ports, "d1", 7)
    assert not pipeline.enqueue_verification(world.ports, "d1", 7), "its dedup key stands for a live message"
    assert pipeline.enqueue_verification(world.ports, "d1", 7, take_over=True)
    assert world.jobs.names() == ["verify-document", "verify-document"]
    assert world.jobs.sent[0][1] == ("d1", 7)


def test_a_stalled_claim_is_reset_and_its_message_taken_over(world, events):
    document_id = world.document(status=Status.PROCESSING)
    moved_on = world.document(status=Status.EXTRACTING)
    stalled = [(document_id, world.brokerage.id), (moved_on, world.brokerage.id)]
    assert pipeline.reset_stalled(world.session, stalled, world.clock.now()) == [document_id]
    assert world.get(document_id).status == Status.PENDING and world.get(moved_on).status == Status.EXTRACTING
    assert events.of(VerificationRequested) == [VerificationRequested(document_id, world.brokerage.id, take_over=True)]
    assert pipeline.reset_stalled(world.session, stalled, world.clock.now()) == []


def test_status_counts_follow_every_move(world):
    document_id = world.document()
    verify(world, document_id)
    assert (world.count(Status.PENDING), world.count(Status.PROCESSING), world.count(Status.EXTRACTING)) == (0, 0, 1)


def test_a_transactions_status_moves_are_counted_once_at_its_commit_and_forgotten_on_rollback(world):
    from leadflow.services import counts
    counts.bump(world.session, world.brokerage.id, {"PENDING": -1, "PROCESSING": +1})
    counts.bump(world.session, world.brokerage.id, {"PROCESSING": -1, "REJECTED": +1})
    world.session.rollback()
    assert world.count(Status.REJECTED) is None, "a rolled-back move is not counted"
    counts.bump(world.session, world.brokerage.id, {"PENDING": -1, "PROCESSING": +1})
    counts.bump(world.session, world.brokerage.id, {"PROCESSING": -1, "REJECTED": +1})
    world.session.commit()
    assert (world.count(Status.REJECTED), world.count(Status.PROCESSING)) == (1, None)
    with world.session.begin_nested():
        counts.bump(world.session, world.brokerage.id, {"REJECTED": -1, "VERIFIED": +1})
    savepoint = world.session.begin_nested()
    counts.bump(world.session, world.brokerage.id, {"REJECTED": +5})
    savepoint.rollback()
    world.session.commit()
    assert (world.count(Status.REJECTED), world.count(Status.VERIFIED)) == (0, 1), \
        "a move in a savepoint is kept with it, and taken back with it"


def test_a_claim_sees_the_job_another_worker_left_on_the_document_meanwhile(world):
    """Read, then another worker claims, makes job1, finds the reader down and hands the
    document back: this claim must submit job1 again, not make a second job beside it."""
    from sqlalchemy import update as sql_update
    from leadflow.models import Document
    from leadflow.services import transitions
    document_id = world.document()
    stale = world.session.get(Document, document_id)
    assert stale.current_job_id is None
    world.session.execute(sql_update(Document).where(Document.id == document_id).values(current_job_id="1" * 32)
                          .execution_options(synchronize_session=False))
    assert transitions.apply(world.session, document_id, Status.PENDING, Status.PROCESSING, action="claimed")
    assert stale.current_job_id == "1" * 32
