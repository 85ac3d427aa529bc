"""A person decides with fakes: the reviewer's type, reading or rejection, an admin's retry;
who may do each, and every decision guarded by the status it expects."""
import pytest
from sqlalchemy import update

from leadflow.domain.events import VerificationRequested
from leadflow.domain.lifecycle import RejectionCode, Status
from leadflow.errors import Conflict, Forbidden, InvalidInput, NotFound
from leadflow.models import Document
from leadflow.services import review, transitions
from tests.unit.fakes import PAYSLIP, events, world  # noqa: F401  (fixtures)

UNREADABLE_PERIOD = [{"code": "fields_unreadable", "en": "A person reads: pay period.", "de": "-",
                      "fields": ["period"]}]


def waiting(world, **extra) -> str:
    return world.document(status=Status.ACTION_REQUIRED, **extra)


def decide(world, user, document_id, **choice):
    return review.decide(world.session, world.ports, user, document_id, **choice)


def test_a_reviewer_rejects_with_a_reason_the_client_reads(world):
    document_id = waiting(world)
    document = decide(world, world.platform_admin, document_id, reject_reason="  Not the statement we asked for. ")
    assert (document.status, document.rejection_code) == (Status.REJECTED, RejectionCode.REJECTED_BY_REVIEWER)
    assert document.verification_notes[0]["en"] == "Not the statement we asked for."
    assert world.audit(document_id) == ["reviewer_rejected"]


def test_a_decided_type_sends_the_document_to_be_read_as_that_type(world):
    document_id = waiting(world, kind=None)
    document = decide(world, world.platform_admin, document_id, document_type="payslip")
    assert document.status == Status.EXTRACTING
    assert world.extraction.submitted[-1]["output_spec"] == {"document_type": "payslip"}
    assert world.audit(document_id) == ["type_decided", "extraction_started"]


def test_a_type_not_on_the_list_is_refused(world):
    document_id = waiting(world)
    with pytest.raises(InvalidInput):
        decide(world, world.platform_admin, document_id, document_type="love letter")
    assert world.get(document_id).status == Status.ACTION_REQUIRED


@pytest.mark.parametrize("who", ["advisor", "broker_admin", "client", "stranger"])
def test_only_a_platform_admin_decides(world, who):
    document_id = waiting(world)
    with pytest.raises(Forbidden):
        decide(world, getattr(world, who), document_id, reject_reason="no")
    assert world.get(document_id).status == Status.ACTION_REQUIRED


def test_a_document_not_waiting_for_a_decision_is_refused(world):
    document_id = world.document(status=Status.VERIFIED)
    with pytest.raises(Conflict):
        decide(world, world.platform_admin, document_id, reject_reason="no")


def test_of_two_reviewers_deciding_at_once_the_second_is_told(world, monkeypatch):
    document_id = waiting(world)
    apply = transitions.apply

    def the_other_reviewer_first(session, *args, **kwargs):
        apply(session, document_id, Status.ACTION_REQUIRED, Status.REJECTED, action="reviewer_rejected")
        return apply(session, *args, **kwargs)

    monkeypatch.setattr(transitions, "apply", the_other_reviewer_first)
    with pytest.raises(Conflict):
        decide(world, world.platform_admin, document_id, reject_reason="mine")


def test_a_reviewer_reads_the_fields_the_reader_missed_and_the_rules_run_at_once(world):
    document_id = world.extracted(fields={k: v for k, v in PAYSLIP.items() if k != "period"},
                                  status=Status.ACTION_REQUIRED)
    world.session.execute(update(Document).where(Document.id == document_id)
                          .values(verification_notes=UNREADABLE_PERIOD))
    world.session.commit()
    document = decide(world, world.platform_admin, document_id, fields={"period": "10/2026"})
    assert document.status == Status.VERIFIED
    assert world.audit(document_id) == ["reviewer_read_fields"]


@pytest.mark.parametrize("fields, problem", [
    ({"period": ""}, "Fill in"), ({"salary_of_dreams": "1"}, "Not a field"), ({"period": "whenever"}, "type it like"),
])
def test_read_fields_that_are_blank_unknown_or_unreadable_are_refused(world, fields, problem):
    document_id = world.extracted(status=Status.ACTION_REQUIRED)
    world.session.execute(update(Document).where(Document.id == document_id)
                          .values(verification_notes=UNREADABLE_PERIOD))
    world.session.commit()
    with pytest.raises(InvalidInput, match=problem):
        decide(world, world.platform_admin, document_id, fields=fields)
    assert world.get(document_id).status == Status.ACTION_REQUIRED


def test_fields_for_a_document_not_waiting_for_them_are_refused(world):
    document_id = world.extracted(status=Status.ACTION_REQUIRED)
    with pytest.raises(Conflict):
        decide(world, world.platform_admin, document_id, fields={"period": "10/2026"})


def test_an_admin_retries_a_failure_of_ours_and_its_message_takes_the_key_over(world, events):
    document_id = world.document(status=Status.ACTION_REQUIRED, rejection_code="SYSTEM_EXTRACTION_FAILED")
    document = review.retry(world.session, world.broker_admin, document_id)
    assert (document.status, document.rejection_code, document.current_job_id) == (Status.PENDING, None, None)
    assert events.of(VerificationRequested) == [VerificationRequested(document_id, world.brokerage.id, take_over=True)]


def test_a_rejection_of_the_clients_file_is_not_retried(world):
    document_id = world.document(status=Status.REJECTED, rejection_code="UNREADABLE")
    with pytest.raises(Conflict):
        review.retry(world.session, world.broker_admin, document_id)


@pytest.mark.parametrize("who", ["advisor", "client"])
def test_only_an_admin_retries(world, who):
    document_id = world.document(status=Status.ACTION_REQUIRED, rejection_code="SYSTEM_EXTRACTION_FAILED")
    with pytest.raises(Forbidden):
        review.retry(world.session, getattr(world, who), document_id)


def test_another_brokerages_admin_cannot_find_the_document_to_retry(world):
    document_id = world.document(status=Status.ACTION_REQUIRED, rejection_code="SYSTEM_EXTRACTION_FAILED")
    world.stranger.role = "brokerage_admin"
    world.session.commit()
    with pytest.raises(NotFound):
        review.retry(world.session, world.stranger, document_id)
