"""The document lifecycle as its users rely on it: the journeys it allows, the shortcuts it
refuses, and its one writer (a guarded update) on an in-memory database."""
from collections import deque

import pytest
from sqlalchemy import select, update

from leadflow import outbox
from leadflow.domain import lifecycle
from leadflow.domain.events import DocumentStatusChanged
from leadflow.domain.lifecycle import ALLOWED, JobStatus, IllegalTransition, Status
from leadflow.models import AuditEntry, Document
from leadflow.services import transitions
from tests.unit.fakes import events, world  # noqa: F401  (fixtures)

S = Status


def reachable_from(start: Status) -> set[Status]:
    seen, todo = {start}, deque([start])
    while todo:
        for source, target in ALLOWED:
            if source == todo[0] and target not in seen:
                seen.add(target)
                todo.append(target)
        todo.popleft()
    return seen


def walk(world, document_id: str, *statuses: Status) -> list[bool]:
    return [transitions.apply(world.session, document_id, a, b) for a, b in zip(statuses, statuses[1:])]


def test_every_status_can_be_reached_from_an_upload():
    assert reachable_from(S.PENDING) == set(Status)


def test_no_status_is_a_dead_end_every_document_can_still_be_settled():
    for status in Status:
        assert reachable_from(status) & lifecycle.SETTLED, status


def test_a_verdict_is_reached_only_through_extraction_or_a_person():
    # Nothing jumps from an upload straight to a verdict without a worker's claim.
    assert not {(S.PENDING, S.VERIFIED), (S.PENDING, S.EXTRACTING)} & ALLOWED
    assert {s for s, t in ALLOWED if t == S.EXTRACTING} == {S.PROCESSING} | lifecycle.SETTLED


def test_a_document_is_claimed_only_from_pending_or_by_a_persons_decision():
    assert {s for s, t in ALLOWED if t == S.PROCESSING} == {S.PENDING, S.ACTION_REQUIRED}


def test_only_verified_and_rejected_are_terminal():
    assert {s for s in Status if lifecycle.is_terminal(s)} == {S.VERIFIED, S.REJECTED}


def test_system_failures_are_told_apart_from_verdicts():
    assert lifecycle.is_system_failure("SYSTEM_RETRIES_EXHAUSTED")
    assert not lifecycle.is_system_failure("ILLEGIBLE")
    assert not lifecycle.is_system_failure(None)


def test_the_happy_path_of_an_upload_moves_step_by_step_and_audits_each(world, events):
    document_id = world.document()
    assert walk(world, document_id, S.PENDING, S.PROCESSING, S.EXTRACTING, S.VERIFIED) == [True, True, True]
    outbox.commit(world.session)
    document = world.get(document_id)
    assert document.status == S.VERIFIED and document.verified_at is not None
    assert [(a.from_status, a.to_status) for a in world.session.scalars(select(AuditEntry))] == [
        ("PENDING", "PROCESSING"), ("PROCESSING", "EXTRACTING"), ("EXTRACTING", "VERIFIED")]
    assert [e.status for e in events.of(DocumentStatusChanged)] == ["PROCESSING", "EXTRACTING", "VERIFIED"]
    assert (world.count(S.PENDING), world.count(S.VERIFIED)) == (0, 1)


@pytest.mark.parametrize("source, target", [
    (S.PENDING, S.VERIFIED), (S.PENDING, S.EXTRACTING), (S.EXTRACTING, S.PROCESSING), (S.VERIFIED, S.PROCESSING),
    (S.REJECTED, S.PROCESSING), (S.VERIFIED, S.VERIFIED), (S.EXTRACTING, S.EXTRACTING),
])
def test_a_shortcut_is_refused_before_anything_is_written(world, source, target):
    document_id = world.document(status=source)
    with pytest.raises(IllegalTransition):
        transitions.apply(world.session, document_id, source, target)
    world.session.commit()
    assert world.get(document_id).status == source
    assert world.audit(document_id) == []


def test_a_move_from_a_status_the_document_has_left_writes_nothing(world, events):
    document_id = world.document(status=S.PROCESSING)
    assert not transitions.apply(world.session, document_id, S.PENDING, S.PROCESSING)
    world.session.commit()
    assert world.get(document_id).status == S.PROCESSING
    assert world.audit(document_id) == [] and events.seen == []
    assert world.count(S.PROCESSING) == 1


def test_of_two_claims_on_one_document_exactly_one_wins(world):
    document_id = world.document()
    assert walk(world, document_id, S.PENDING, S.PROCESSING) == [True]
    assert walk(world, document_id, S.PENDING, S.PROCESSING) == [False]


def test_a_loaded_document_reads_its_new_status_after_a_move(world):
    document_id = world.document()
    loaded = world.session.get(Document, document_id)
    transitions.apply(world.session, document_id, S.PENDING, S.PROCESSING)
    assert loaded.status == S.PROCESSING


def test_new_notes_on_an_unchanged_verdict_need_the_document_still_in_it(world):
    document_id = world.document(status=S.VERIFIED)
    notes = [{"code": "ok", "en": "fine", "de": "gut"}]
    assert transitions.renote(world.session, document_id, S.VERIFIED, action="corrected", verification_notes=notes)
    world.session.execute(update(Document).where(Document.id == document_id).values(status=S.EXTRACTING.value))
    assert not transitions.renote(world.session, document_id, S.VERIFIED, action="corrected",
                                  verification_notes=[])
    world.session.commit()
    assert world.get(document_id).verification_notes == notes


def test_a_job_is_accepted_only_once_and_a_finished_job_never_reopens():
    assert {s for s, t in lifecycle.JOB_EDGES if t == JobStatus.ACCEPTED} == {JobStatus.CREATED}
    assert not {s for s, _ in lifecycle.JOB_EDGES} & lifecycle.JOB_FINISHED
    with pytest.raises(IllegalTransition):
        lifecycle.check_job(JobStatus.FAILED, JobStatus.ACCEPTED)


def test_finishing_a_job_as_anything_but_completed_or_failed_is_refused(world):
    with pytest.raises(IllegalTransition):
        transitions.finish(world.session, "any", JobStatus.ACCEPTED)
