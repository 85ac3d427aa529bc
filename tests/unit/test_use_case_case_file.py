"""The case file use cases with fakes: checks over the case's confidently read documents, the
planned payout date, and the staleness sweep that takes aged-out documents off the checklist."""
from datetime import date, timedelta

from sqlalchemy import select, update

from leadflow import sweeps
from leadflow.domain import case_checks as cc
from leadflow.domain.events import DocumentStatusChanged
from leadflow.models import Document, SentNotification
from leadflow.services import case_file, checklist, erasure
from tests.unit.fakes import PAYSLIP, events, world  # noqa: F401  (fixtures)

PASSPORT = {"surname": "MUSTERMANN", "given_names": "RAHUL", "expiry_date": "2031-01-01", "nationality": "IND"}
STATEMENT = {"holder": "Rahul Mustermann", "period_start": "2026-10-01", "period_end": "2026-10-31",
             "bookings": [{"date": "2026-10-30", "counterparty": "Platzhalter Pharma AG",
                           "purpose": "Lohn/Gehalt Entgelt 10/2026", "amount": PAYSLIP.get("payout") or PAYSLIP["net"]}]}


def by_key(results):
    return {r.key: r for r in results}


def case(world):
    world.session.expire_all()
    return world.case


def test_the_checks_read_the_cases_verified_documents(world):
    world.extracted(fields=PASSPORT, document_type="id_document")
    world.extracted(fields=PAYSLIP)
    world.extracted(fields=STATEMENT, document_type="bank_statement")
    results = by_key(case_file.case_checks(world.session, world.ports, case(world)))
    assert results["identity"].outcome == cc.OK
    assert results["income_credits"].outcome == cc.OK
    summary = case_file.income_summary(world.session, world.ports, case(world))
    assert str(summary.average_net) == PAYSLIP["net"]


def test_a_name_read_without_confidence_is_not_held_against_the_case(world):
    world.extracted(fields=PASSPORT, document_type="id_document")
    unsure = {"fields": {**STATEMENT, "holder": "Ruhal Mastermann"}, "field_confidence": {"holder": 0.4}}
    assert case_file.read_fields(unsure).get("holder") is None
    sure = {"fields": {**STATEMENT, "holder": "Anna Schmidt"}, "field_confidence": {"holder": 0.93}}
    assert case_file.read_fields(sure)["holder"] == "Anna Schmidt"
    by_person = {"fields": {"holder": "Anna Schmidt"}, "field_confidence": {"holder": 0.2}, "read_by_person": ["holder"]}
    assert case_file.read_fields(by_person)["holder"] == "Anna Schmidt"


def test_names_that_differ_are_a_problem_and_a_rejected_document_is_not_compared(world):
    world.extracted(fields=PASSPORT, document_type="id_document")
    world.extracted(fields={**PAYSLIP, "employee": "Anna Schmidt"})
    assert by_key(case_file.case_checks(world.session, world.ports, case(world)))["identity"].outcome == cc.PROBLEM
    world.session.execute(update(Document).where(Document.document_type == "payslip").values(status="REJECTED"))
    world.session.commit()
    identity = by_key(case_file.case_checks(world.session, world.ports, case(world)))["identity"]
    assert identity.outcome == cc.OK and len(identity.documents) == 1, "only the passport is compared with the client"


def test_the_planned_payout_date_decides_how_long_the_passport_must_last(world):
    world.extracted(fields={**PASSPORT, "expiry_date": "2027-05-01"}, document_type="id_document")
    assert by_key(case_file.case_checks(world.session, world.ports, case(world)))["identity_valid"].outcome == cc.OK
    case_file.set_planned_payout(world.session, case(world), date(2027, 6, 1))
    result = by_key(case_file.case_checks(world.session, world.ports, case(world)))["identity_valid"]
    assert result.outcome == cc.PROBLEM and result.client
    identity = next(s for s in checklist.for_workspace(world.session, world.storage, world.case.id, world.brokerage.id)
                    if s.item.key == "identity")
    assert identity.state == "missing" and [d.replace for d in identity.to_replace] == ["expires"]


def test_the_staleness_sweep_takes_an_aged_out_payslip_off_the_checklist_once(world, events):
    world.ports.settings["SECRET_KEY"] = "unit-test-secret"  # signs the email's unsubscribe link
    slips = [world.extracted(fields={**PAYSLIP, "period": period}) for period in ("2026-10", "2026-09", "2026-08")]
    payslips = lambda: next(s for s in checklist.for_workspace(world.session, world.storage, world.case.id,  # noqa: E731
                                                               world.brokerage.id) if s.item.key == "payslips")
    assert payslips().state == "done"
    assert sweeps.sweep_stale(world.session, world.ports, world.clock.now(), 10) == 0, "all recent on 29 November"
    world.clock.advance(timedelta(days=2))  # 1 December: August's payslip is too old
    assert sweeps.sweep_stale(world.session, world.ports, world.clock.now(), 10) == 1
    assert world.audit(slips[2])[-1] == "went_stale"
    assert payslips().state == "missing" and payslips().verified == 2
    assert [d.id for d in payslips().to_replace] == [slips[2]]
    assert [e.document_id for e in events.of(DocumentStatusChanged)] == [slips[2]], "open pages re-read the case"
    told = world.session.scalars(select(SentNotification.subject).where(SentNotification.kind == "document_stale"))
    assert list(told) == [slips[2]], "the client is told which one to replace"
    assert sweeps.sweep_stale(world.session, world.ports, world.clock.now(), 10) == 0, "marked once"


def test_a_closed_cases_documents_do_not_go_stale_and_its_client_is_asked_for_nothing(world):
    world.ports.settings["SECRET_KEY"] = "unit-test-secret"
    world.extracted(fields={**PAYSLIP, "period": "2026-08"})
    world.case.closed_at = world.clock.now()
    world.session.commit()
    world.clock.advance(timedelta(days=2))  # 1 December: August's payslip would be too old
    assert sweeps.sweep_stale(world.session, world.ports, world.clock.now(), 10) == 0
    assert world.session.scalars(select(SentNotification)).all() == []

    # Reopened: the client came back, and a newer payslip is wanted.
    assert erasure.reopen_case(world.session, world.ports, world.advisor, world.case.id)
    assert sweeps.sweep_stale(world.session, world.ports, world.clock.now(), 10) == 1


def test_the_staleness_sweep_reads_a_batch_at_a_time_and_marks_every_document_due_once(world):
    world.ports.settings["SECRET_KEY"] = "unit-test-secret"
    for period in ("2026-06", "2026-07", "2026-08"):
        world.extracted(fields={**PAYSLIP, "period": period})
    world.clock.advance(timedelta(days=2))
    assert sweeps.sweep_stale(world.session, world.ports, world.clock.now(), 2) == 3, "two reads: 2, then 1"
    assert sweeps.sweep_stale(world.session, world.ports, world.clock.now(), 2) == 0, "marked once"
