"""The applicants' use cases with fakes (SQLite, in memory): a case knows its client before anyone
stores them, a co-applicant is added once, bad input writes nothing, and the advisor settles whose
a document naming someone not on the case is."""
import pytest
from sqlalchemy import func, select

from leadflow.domain.lifecycle import Status
from leadflow.errors import Conflict, Forbidden, InvalidInput, NotFound
from leadflow.models import Applicant
from leadflow.services import applicants, whose
from tests.unit.fakes import PAYSLIP, world  # noqa: F401  (fixtures)

NOT_ON_CASE = [{"code": "not_on_case", "en": "…", "de": "…"}]


def stored(world):
    return world.session.scalar(select(func.count()).select_from(Applicant))


def test_a_case_knows_its_client_before_an_applicant_row_is_stored(world):
    (client,) = applicants.people(world.session, world.case)
    assert (client.id, client.name, client.role) == (None, "Rahul Mustermann", "client")
    assert stored(world) == 0


def test_a_co_applicant_is_added_once_with_the_client_stored_beside_them(world):
    added = applicants.add_co_applicant(world.session, world.advisor, world.case, name="  Priya   Sharma ",
                                        date_of_birth="1990-04-15", citizenship="in")
    assert (added.name, added.citizenship, str(added.date_of_birth)) == ("Priya Sharma", "IN", "1990-04-15")
    assert [(p.name, p.role) for p in applicants.people(world.session, world.case)] == [
        ("Rahul Mustermann", "client"), ("Priya Sharma", "co_applicant")]
    with pytest.raises(Conflict):
        applicants.add_co_applicant(world.session, world.client, world.case, name="Someone Else")


@pytest.mark.parametrize("form", [{"name": ""}, {"name": "Ann Lee", "date_of_birth": "2999-01-01"},
                                  {"name": "Ann Lee", "citizenship": "EU"}, {"name": "Ann Lee", "citizenship": "XYZ"}])
def test_bad_input_writes_nothing(world, form):
    with pytest.raises(InvalidInput):
        applicants.add_co_applicant(world.session, world.advisor, world.case, **form)
    assert stored(world) == 0


def test_the_citizenship_is_told_and_unknown_again(world):
    applicants.set_details(world.session, world.client, world.case, "client", citizenship="FR", keep_birth=True)
    assert applicants.people(world.session, world.case)[0].citizenship == "FR"
    applicants.set_details(world.session, world.client, world.case, "client", citizenship="", keep_birth=True)
    assert applicants.people(world.session, world.case)[0].citizenship is None
    with pytest.raises(Forbidden):
        applicants.set_details(world.session, world.platform_admin, world.case, "client", citizenship="FR")


def test_the_advisor_assigns_a_document_and_the_rules_judge_it_again(world):
    document_id = world.extracted(fields={**PAYSLIP, "employee": "Rahul M. Mustermann-Kahn"},
                                  status=Status.ACTION_REQUIRED)
    world.get(document_id).verification_notes = NOT_ON_CASE
    world.session.commit()
    with pytest.raises(Forbidden):
        whose.settle_whose(world.session, world.ports, world.client, document_id, action="assign", applicant="client")
    with pytest.raises(InvalidInput):
        whose.settle_whose(world.session, world.ports, world.advisor, document_id, action="assign", applicant="both")
    document = whose.settle_whose(world.session, world.ports, world.advisor, document_id, action="assign",
                                  applicant="client")
    client = applicants.people(world.session, world.case)[0]
    assert document.status == Status.VERIFIED.value and document.applicant_id == client.id is not None
    with pytest.raises(Conflict):
        whose.settle_whose(world.session, world.ports, world.advisor, document_id, action="reject")


def test_erasing_the_client_takes_their_applicant_row_and_the_case_takes_its_co_applicant(world):
    from leadflow.services import erasure
    applicants.add_co_applicant(world.session, world.advisor, world.case, name="Priya Sharma")
    assert stored(world) == 2
    erasure.erase_client(world.session, world.ports, world.broker_admin, world.client.id)
    assert stored(world) == 0, "the case was the client's alone: it goes with its co-applicant"


def test_adding_the_other_holder_of_a_joint_statement_makes_it_both_applicants(world):
    statement = {"holder": "Rahul Mustermann und Priya Sharma", "period_start": "2026-10-01",
                 "period_end": "2026-10-31", "iban": "DE89370400440532013000", "closing_balance": "1200.00"}
    document_id = world.extracted(fields=statement, document_type="bank_statement", status=Status.ACTION_REQUIRED)
    world.get(document_id).verification_notes = NOT_ON_CASE
    world.session.commit()
    document = whose.settle_whose(world.session, world.ports, world.advisor, document_id, action="add")
    client, partner = applicants.people(world.session, world.case)
    assert partner.name == "Priya Sharma", "the holder who matched no applicant, not the whole line"
    assert document.status == Status.VERIFIED.value, document.verification_notes
    assert (document.applicant_id, document.joint) == (client.id, True)


def waiting_for_a_person(world, **fields) -> str:
    document_id = world.extracted(fields={**PAYSLIP, **fields}, status=Status.ACTION_REQUIRED)
    world.get(document_id).verification_notes = NOT_ON_CASE
    world.session.commit()
    return document_id


def test_adding_the_co_applicant_judges_again_the_documents_that_name_them(world):
    theirs = waiting_for_a_person(world, employee="Sharma, Priya")
    strangers = waiting_for_a_person(world, employee="Amira Vorlage")
    whose.add_co_applicant(world.session, world.ports, world.advisor, world.case, name="Priya Sharma")
    partner = applicants.people(world.session, world.case)[1]
    document = world.get(theirs)
    assert (document.status, document.applicant_id) == (Status.VERIFIED.value, partner.id), document.verification_notes
    assert world.get(strangers).status == Status.ACTION_REQUIRED.value, "a name that is still no applicant waits"
    assert world.get(strangers).applicant_id is None


def test_a_corrected_name_judges_again_and_bad_corrections_write_nothing(world):
    document_id = waiting_for_a_person(world, employee="Priya Sharma")
    whose.add_co_applicant(world.session, world.ports, world.advisor, world.case, name="Priya Sharna")
    assert world.get(document_id).status == Status.ACTION_REQUIRED.value, "a typo matches no one"
    with pytest.raises(Forbidden):
        whose.correct_applicant(world.session, world.ports, world.client, world.case, "co_applicant",
                                {"name": "Priya Sharma"})
    for bad in ({"name": ""}, {"date_of_birth": "15.04.1990"}, {"citizenship": "XX"}, {"nickname": "P"}, {}):
        with pytest.raises(InvalidInput):
            whose.correct_applicant(world.session, world.ports, world.advisor, world.case, "co_applicant", bad)
    assert applicants.people(world.session, world.case)[1].name == "Priya Sharna"
    whose.correct_applicant(world.session, world.ports, world.advisor, world.case, "co_applicant",
                            {"name": "Priya Sharma", "date_of_birth": "1990-04-15", "citizenship": "in"})
    partner = applicants.people(world.session, world.case)[1]
    assert (partner.name, str(partner.date_of_birth), partner.citizenship) == ("Priya Sharma", "1990-04-15", "IN")
    document = world.get(document_id)
    assert (document.status, document.applicant_id) == (Status.VERIFIED.value, partner.id)


def test_removing_the_co_applicant_sends_their_documents_back_to_a_person(world):
    document_id = waiting_for_a_person(world, employee="Priya Sharma")
    with pytest.raises(NotFound):
        whose.remove_co_applicant(world.session, world.ports, world.advisor, world.case)
    whose.add_co_applicant(world.session, world.ports, world.advisor, world.case, name="Priya Sharma")
    assert world.get(document_id).status == Status.VERIFIED.value
    with pytest.raises(Forbidden):
        whose.remove_co_applicant(world.session, world.ports, world.client, world.case)
    assert whose.remove_co_applicant(world.session, world.ports, world.advisor, world.case) == [document_id]
    document = world.get(document_id)
    assert (document.status, document.applicant_id) == (Status.ACTION_REQUIRED.value, None)
    assert [n["code"] for n in document.verification_notes] == ["not_on_case"]
    assert "(Priya Sharma)" in document.verification_notes[0]["en"]
    assert [p.role for p in applicants.people(world.session, world.case)] == ["client"]
    # Back with a person, the advisor can add her again from the document.
    document = whose.settle_whose(world.session, world.ports, world.advisor, document_id, action="add")
    assert document.status == Status.VERIFIED.value
