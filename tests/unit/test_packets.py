"""Packets (issue 40) without I/O: the rules of a split (leadflow.domain.packets), and the use cases
that apply one (leadflow.services.packets) on an in-memory database with fakes."""
import json

import pytest

from leadflow.billing import service as billing
from leadflow.domain import packets as rules
from leadflow.domain.audience import Role, Viewer
from leadflow.domain.lifecycle import RejectionCode, Status
from leadflow.domain.packets import Part
from leadflow.errors import Conflict, Forbidden, InvalidInput
from leadflow.models import Document, Packet
from leadflow.services import callbacks, packets, pipeline
from leadflow.extraction import webhooks
from tests.unit.fakes import events, pdf, world  # noqa: F401  (fixtures)

THREE = [Part(1, 1, "payslip"), Part(2, 3, "bank_statement"), Part(4, 4, "invoice")]


# -- the rules ----------------------------------------------------------------------------------------

def test_the_readers_parts_must_cover_every_page_once_in_order():
    wire = [{"first": 1, "last": 2, "document_type": "payslip", "sure": True},
            {"first": 3, "last": 3, "document_type": "receipt", "sure": True}]
    assert [(p.first, p.last, p.document_type) for p in rules.parts_from_wire(wire, 3)] == [
        (1, 2, "payslip"), (3, 3, "receipt")]
    for broken, pages in (([], 1), ([{"first": 1, "last": 1}, {"first": 3, "last": 3}], 3),
                          ([{"first": 1, "last": 2}, {"first": 2, "last": 3}], 3), ([{"first": 1, "last": 2}], 3),
                          ([{"last": 2}], 2), ("parts", 1)):
        with pytest.raises(rules.SplitProblem):
            rules.parts_from_wire(broken, pages)


def test_a_type_the_reader_does_not_know_is_unknown_and_never_sure():
    part, = rules.parts_from_wire([{"first": 1, "last": 1, "document_type": "horoscope", "sure": True}], 1)
    assert (part.document_type, part.sure) == ("unknown", False)


def test_an_unsure_or_too_long_part_waits_for_a_person_and_a_single_document_never_does():
    assert rules.waits_for_a_person(THREE, 5) is None
    unsure = [THREE[0], Part(2, 3, "bank_statement", sure=False), THREE[2]]
    assert rules.waits_for_a_person(unsure, 5) == rules.UNSURE
    assert rules.waits_for_a_person(THREE, 1) == rules.PART_TOO_LONG
    assert rules.waits_for_a_person([Part(1, 4, "unknown", sure=False)], 5) is None


def test_moving_a_boundary_changes_the_two_parts_it_separates():
    moved = rules.move_boundary(THREE, 2, 3)
    assert [(p.first, p.last) for p in moved] == [(1, 1), (2, 2), (3, 4)]
    assert [p.decided for p in moved] == [False, True, True] and all(p.sure for p in moved)
    for index, first in ((0, 1), (2, 2), (2, 5), (1, 2), (7, 3)):
        with pytest.raises(rules.SplitProblem):
            rules.move_boundary(THREE, index, first)


def test_merging_splitting_and_typing_parts():
    assert [(p.first, p.last, p.document_type) for p in rules.merge(THREE, 0)] == [
        (1, 3, "payslip"), (4, 4, "invoice")]
    with pytest.raises(rules.SplitProblem):
        rules.merge(THREE, 2)
    split = rules.split_at(THREE, 1, 3, "payslip")
    assert [(p.first, p.last, p.document_type) for p in split] == [
        (1, 1, "payslip"), (2, 2, "bank_statement"), (3, 3, "payslip"), (4, 4, "invoice")]
    with pytest.raises(rules.SplitProblem):
        rules.split_at(THREE, 0, 1)
    with pytest.raises(rules.SplitProblem):
        rules.split_at(THREE, 1, 3, "horoscope")
    typed = rules.change_type(THREE, 2, "receipt")
    assert (typed[2].document_type, typed[2].decided) == ("receipt", True)
    with pytest.raises(rules.SplitProblem):
        rules.confirmed([Part(1, 1, "unknown", sure=False)])


def test_a_new_split_redoes_only_the_children_whose_pages_or_type_changed():
    children = {1: THREE[0], 2: THREE[1], 3: THREE[2]}
    plan = rules.plan(children, rules.move_boundary(THREE, 2, 3))
    assert (set(plan.keep), set(plan.redo), plan.retire, plan.add) == ({1}, {2, 3}, (), ())
    merged = rules.plan(children, rules.merge(THREE, 1))
    assert (set(merged.keep), set(merged.redo), merged.retire, merged.add) == ({1}, {2}, (3,), ())
    split = rules.plan(children, rules.split_at(THREE, 1, 3))
    assert (set(split.keep), set(split.redo), split.retire, [(p.first, p.last) for p in split.add]) == (
        {1, 3}, {2}, (), [(3, 3)])
    typed = rules.plan(children, rules.change_type(THREE, 0, "receipt"))
    assert (set(typed.keep), set(typed.redo)) == ({2, 3}, {1})


def test_staff_of_the_brokerage_and_platform_reviewers_correct_a_split_clients_and_strangers_do_not():
    assert rules.may_correct(Viewer(1, Role.ADVISOR, 7), 7)
    assert rules.may_correct(Viewer(2, Role.BROKERAGE_ADMIN, 7), 7)
    assert rules.may_correct(Viewer(3, Role.PLATFORM_ADMIN, None), 7)
    assert not rules.may_correct(Viewer(4, Role.CLIENT, 7), 7)
    assert not rules.may_correct(Viewer(5, Role.ADVISOR, 8), 7)


# -- the use cases, with fakes ------------------------------------------------------------------------

def packet(world, pages: int = 4) -> tuple[str, str]:
    """A packet whose split job the reader accepted: (packet id, job id)."""
    document_id = world.document(data=pdf(pages), kind=rules.PACKET_KIND)
    packets.start(world.session, document_id, world.brokerage.id)
    world.session.commit()
    assert pipeline.verify_document(world.session, world.ports, document_id, world.brokerage.id) == \
        pipeline.Outcome.SUBMITTED
    job = world.extraction.submitted[-1]
    assert job["mode"] == "split"
    return document_id, job["job_id"]


def answer(world, job_id, parts, delivery_id="msg_1") -> str:
    payload = {"type": "job.completed", "job_id": job_id,
               "data": {"pages": parts[-1].last, "parts": [{**p.as_dict()} for p in parts]}}
    body = json.dumps(payload).encode()
    headers = webhooks.headers_for(world.ports.settings["EXTRACTION_WEBHOOK_SECRET"], delivery_id, body)
    callbacks.receive(world.session, world.ports, headers, body)
    return callbacks.process(world.session, world.ports, delivery_id)


def children(world, packet_id):
    world.session.expire_all()
    return world.session.query(Document).filter(Document.packet_id == packet_id).order_by(Document.part_number).all()


def test_a_sure_split_makes_a_child_per_part_and_moves_the_packets_reservation_to_them(world, events):
    packet_id, job_id = packet(world)
    held = world.wallet().reserved
    assert held == 4
    assert answer(world, job_id, THREE) == "applied: split into 3 documents"
    made = children(world, packet_id)
    assert [(c.first_page, c.last_page, c.kind, c.status, c.page_count) for c in made] == [
        (1, 1, "payslip", "PENDING", 1), (2, 3, "bank_statement", "PENDING", 2), (4, 4, "invoice", "PENDING", 1)]
    assert world.get(packet_id).status == Status.VERIFIED
    wallet = world.wallet()
    assert (wallet.reserved, wallet.balance + wallet.reserved + wallet.settled) == (4, wallet.granted)
    assert billing.check_all(world.session, world.brokerage.id) == {}
    # The client's pages today: the packet's four, once.
    assert billing.client_pages_today(world.session, world.client.id, world.clock.now()) == 4
    # A child's first reading reads its own pages, with the job made at the split.
    assert pipeline.verify_document(world.session, world.ports, made[1].id, world.brokerage.id) == \
        pipeline.Outcome.SUBMITTED
    sent = world.extraction.submitted[-1]
    assert (sent["mode"], sent["output_spec"]["pages"], sent["job_id"]) == ("first", [2, 3], made[1].current_job_id)
    # The same result again changes nothing.
    assert answer(world, job_id, THREE, "msg_2") == "ignored: job already completed"
    assert len(children(world, packet_id)) == 3


def test_an_unsure_split_waits_for_a_person_who_confirms_it(world):
    packet_id, job_id = packet(world)
    unsure = [THREE[0], Part(2, 3, "bank_statement", boundary_confidence=0.6, sure=False), THREE[2]]
    assert answer(world, job_id, unsure).startswith("applied: ACTION_REQUIRED")
    waiting = world.get(packet_id)
    assert (waiting.status, waiting.rejection_code) == (Status.ACTION_REQUIRED, RejectionCode.PACKET_SPLIT_UNSURE)
    assert world.wallet().reserved == 0 and children(world, packet_id) == []
    with pytest.raises(Forbidden):
        packets.confirm(world.session, world.ports, world.client, packet_id)
    with pytest.raises(Conflict):
        packets.confirm(world.session, world.ports, world.advisor, packet_id, revision=0)
    done = packets.confirm(world.session, world.ports, world.advisor, packet_id)
    assert done.state == "split" and len(children(world, packet_id)) == 3
    assert world.get(packet_id).status == Status.VERIFIED and world.wallet().reserved == 4


def test_a_packet_of_one_document_stays_one_document_read_from_its_pages(world):
    packet_id, job_id = packet(world, pages=2)
    assert answer(world, job_id, [Part(1, 2, "bank_statement")]) == "applied: one document (bank_statement)"
    single = world.get(packet_id)
    assert (single.status, single.kind, single.first_page, single.last_page) == (
        Status.PENDING, "bank_statement", 1, 2)
    assert children(world, packet_id) == [] and world.wallet().reserved == 2
    assert pipeline.verify_document(world.session, world.ports, packet_id, world.brokerage.id) == \
        pipeline.Outcome.SUBMITTED
    assert world.extraction.submitted[-1]["output_spec"] == {"pages": [1, 2]}


def test_a_correction_refuses_bad_input_and_writes_nothing(world):
    packet_id, job_id = packet(world)
    answer(world, job_id, THREE)
    revision = world.session.get(Packet, packet_id).revision
    for change in ({"what": "merge", "part": 9}, {"what": "split", "part": 1, "page": None},
                   {"what": "change_type", "part": 1, "document_type": "horoscope"}, {"what": "dance"}):
        with pytest.raises(InvalidInput):
            packets.change(world.session, world.ports, world.advisor, packet_id, change.pop("what"), **change)
    # The children are still being read: a correction waits for them.
    with pytest.raises(Conflict):
        packets.change(world.session, world.ports, world.advisor, packet_id, "merge", part=1)
    world.session.expire_all()
    assert world.session.get(Packet, packet_id).revision == revision


def test_a_merge_redoes_the_part_that_grows_retires_the_other_and_leaves_the_rest(world, events):
    from sqlalchemy import update
    from leadflow.domain.events import DocumentStatusChanged, VerificationRequested
    from leadflow.models import ExtractionJob
    packet_id, job_id = packet(world)
    answer(world, job_id, THREE)
    first, second, third = children(world, packet_id)
    # The three were read (as the pipeline would leave them: a verdict each).
    world.session.execute(update(Document).where(Document.packet_id == packet_id).values(status="VERIFIED"))
    world.session.commit()
    done = packets.change(world.session, world.ports, world.advisor, packet_id, "merge", part=2)
    assert [(p["first"], p["last"], p["number"]) for p in done.parts] == [(1, 1, 1), (2, 4, 2)]
    grown, retired, kept = world.get(second.id), world.get(third.id), world.get(first.id)
    assert (grown.status, grown.first_page, grown.last_page, grown.page_count) == (Status.PENDING, 2, 4, 3)
    job = world.session.get(ExtractionJob, grown.current_job_id)
    assert (job.mode, job.requested_by_id, job.output_spec) == (
        "first", world.advisor.id, {"pages": [2, 4], "document_type": "bank_statement", "cause": "resplit"})
    assert (retired.status, retired.rejection_code, retired.first_page) == (
        Status.REJECTED, RejectionCode.PACKET_PART_MERGED, None)
    assert kept.status == Status.VERIFIED and "packet_resplit" not in world.audit(first.id)
    assert events.of(VerificationRequested)[-1] == VerificationRequested(second.id, world.brokerage.id)
    assert {e.packet_id for e in events.of(DocumentStatusChanged) if e.document_id in (second.id, third.id)} == {
        packet_id}
    # A person's rerun of its pages does not count against the client's allowance.
    assert pipeline.verify_document(world.session, world.ports, second.id, world.brokerage.id) == \
        pipeline.Outcome.SUBMITTED
    assert billing.client_pages_today(world.session, world.client.id, world.clock.now()) == 4


def _read_again_after_a_merge(world):
    """A packet of THREE, its documents read, then parts 2 and 3 merged by an advisor: the grown
    document (pages 2-4, a bank statement a person decided) is claimed for its reread."""
    from sqlalchemy import update
    packet_id, job_id = packet(world)
    answer(world, job_id, THREE)
    world.session.execute(update(Document).where(Document.packet_id == packet_id).values(status="VERIFIED"))
    world.session.commit()
    packets.change(world.session, world.ports, world.advisor, packet_id, "merge", part=2)
    grown = children(world, packet_id)[1]
    world.held = world.wallet().reserved
    assert pipeline.verify_document(world.session, world.ports, grown.id, world.brokerage.id) == \
        pipeline.Outcome.SUBMITTED
    return packet_id, grown.id, world.extraction.submitted[-1]["job_id"]


def result(world, job_id, delivery_id, data):
    body = json.dumps({"type": "job.completed" if "error" not in data else "job.failed", "job_id": job_id,
                       "data": data}).encode()
    headers = webhooks.headers_for(world.ports.settings["EXTRACTION_WEBHOOK_SECRET"], delivery_id, body)
    callbacks.receive(world.session, world.ports, headers, body)
    return callbacks.process(world.session, world.ports, delivery_id)


def test_a_corrected_splits_reread_holds_no_credits_and_is_charged_nothing(world, events):
    from leadflow.domain.events import ReservationDue
    from leadflow.models import CreditReservation
    _, grown_id, job_id = _read_again_after_a_merge(world)
    # Its pages were charged when the packet's documents were first read: nothing is held for it,
    # so neither an empty wallet nor the client's allowance keeps it waiting.
    assert world.session.query(CreditReservation).filter_by(job_id=job_id).count() == 0
    assert world.wallet().reserved == world.held
    outcome = result(world, job_id, "msg_reread", {"document_type": "bank_statement", "confidence": 0.97, "pages": 3,
                                                    "content": {"fields": {}}, "schema": {}})
    assert outcome.startswith("applied")
    # Its end settles nothing (a reservation it held from before would be released, not charged).
    assert [e.pages for e in events.of(ReservationDue) if e.job_id == job_id] == [None]
    assert billing.check_all(world.session, world.brokerage.id) == {}


def test_a_retry_after_a_failure_of_ours_keeps_the_type_a_person_decided(world):
    from sqlalchemy import update
    from leadflow.models import ExtractionJob
    packet_id, grown_id, job_id = _read_again_after_a_merge(world)
    assert result(world, job_id, "msg_failed", {"error": {"code": "internal", "message": "it broke"}}).startswith(
        "applied")
    waiting = world.get(grown_id)
    assert waiting.status == Status.PENDING and waiting.current_job_id != job_id
    retry = world.session.get(ExtractionJob, waiting.current_job_id)
    assert retry.deadline_at is not None
    assert retry.output_spec == {"pages": [2, 4], "document_type": "bank_statement", "cause": "resplit"}
    # An admin's retry (no job left to copy) finds the person's type on the packet's split.
    world.session.execute(update(Document).where(Document.id == grown_id)
                          .values(current_job_id=None))
    world.session.commit()
    assert pipeline.verify_document(world.session, world.ports, grown_id, world.brokerage.id) == \
        pipeline.Outcome.SUBMITTED
    sent = world.extraction.submitted[-1]
    assert (sent["output_spec"]["document_type"], sent["output_spec"]["pages"]) == ("bank_statement", [2, 4])


def test_every_problem_of_a_split_is_said_in_english_and_german():
    from pathlib import Path
    from babel.messages.pofile import read_po
    with open(Path(__file__).resolve().parents[2] / "translations/de/LC_MESSAGES/messages.po", "rb") as handle:
        german = {m.id: m for m in read_po(handle) if m.id}
    problems = []
    for attempt in (lambda: rules.parts_from_wire([], 3), lambda: rules.parts_from_wire(["x"], 3),
                    lambda: rules.parts_from_wire([{"first": 1}], 3),
                    lambda: rules.parts_from_wire([{"first": 1, "last": 2}], 3),
                    lambda: rules.check_limits([Part(1, 30, "payslip")], 20),
                    lambda: rules.move_boundary(THREE, 1, 4), lambda: rules.move_boundary(THREE, 1, 2),
                    lambda: rules.split_at(THREE, 0, 1), lambda: rules.change_type(THREE, 9, "payslip"),
                    lambda: rules.change_type(THREE, 0, "horoscope"),
                    lambda: rules.change_type([Part(1, 1, "payslip", decided=True)], 0, "payslip"),
                    lambda: rules.confirmed([Part(1, 1, rules.UNKNOWN)])):
        with pytest.raises(rules.SplitProblem) as caught:
            attempt()
        problems.append(caught.value)
    for problem in problems:
        assert problem.message == (problem.msgid % problem.values if problem.values else problem.msgid)
        found = german.get(problem.msgid)
        assert found is not None and found.string and not found.fuzzy, problem.msgid
        assert (found.string % problem.values) != problem.message, problem.msgid
    assert problems[5].message == "Part 2 can start on a page from 2 to 3."
