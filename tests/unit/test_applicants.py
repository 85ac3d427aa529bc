"""Whose a document is: the names it shows matched to the case's applicants with the rules of
names.py, and what verification says of one that names someone who is not on the case."""
from datetime import date

import pytest

from leadflow.domain.applicants import CO_APPLICANT, Person, needs_residence_permit, whose
from leadflow.domain.lifecycle import Status
from leadflow.domain.verification import Applicant, verify_type
from leadflow.domain.verification.names import people_named

TODAY = date(2026, 11, 15)
PRIYA = Person(1, "Dr. Priya Sharma")
JONAS = Person(2, "Jonas Müller", role=CO_APPLICANT)
CASE = (PRIYA, JONAS)


@pytest.mark.parametrize("written", ["Priya Sharma", "SHARMA, PRIYA", "Priya Devi Sharma", "Frau Priya Sharma"])
def test_a_name_written_another_way_is_the_applicants(written):
    assert whose("payslip", {"employee": written}, CASE).applicants == (1,)


@pytest.mark.parametrize("written", ["Jonas Mueller", "JONAS MÜLLER", "Muller, Jonas"])
def test_accents_and_transliterations_find_the_co_applicant(written):
    assert whose("employment_contract", {"employee": written}, CASE).applicants == (2,)


def test_a_joint_statement_belongs_to_both_and_a_stranger_to_none():
    joint = whose("bank_statement", {"holder": "Eheleute Jonas Müller und Priya Sharma"}, CASE)
    assert joint.applicants == (1, 2) and joint.joint and not joint.strangers
    half = whose("bank_statement", {"holder": "Priya Sharma & Anna Schmidt"}, CASE)
    assert half.applicants == (1,) and half.strangers == ("Anna Schmidt",)
    assert whose("payslip", {"employee": "Amira Vorlage"}, CASE).strangers == ("Amira Vorlage",)


def test_a_document_that_names_no_one_we_read_is_nobodys_yet():
    assert whose("payslip", {"gross": "100.00"}, CASE) == whose("invoice", {}, CASE)
    assert whose("payslip", {}, CASE).applicants == () and not whose("payslip", {}, CASE).strangers


def test_an_id_is_matched_by_its_machine_readable_zone():
    assert whose("id_document", {"surname": "MUELLER", "given_names": "JONAS"}, CASE).applicants == (2,)
    assert whose("id_document", {"surname": "VORLAGE", "given_names": "AMIRA"}, CASE).strangers == ("AMIRA VORLAGE",)


def test_people_named_splits_joint_holders():
    assert people_named("Herrn und Frau Max Muster") == ["Frau Max Muster"]  # one person; titles are ignored in matching
    assert people_named("Max Muster und Erika Beispiel") == ["Max Muster", "Erika Beispiel"]
    assert people_named("Max Muster / Erika Beispiel") == ["Max Muster", "Erika Beispiel"]


def test_only_a_known_citizenship_outside_the_eu_eea_and_switzerland_needs_a_permit():
    assert needs_residence_permit("IN") is True and needs_residence_permit("NOR") is False
    assert needs_residence_permit("unknown") is None


PAYSLIP = {"fields": {"employee": "Amira Vorlage", "period": "2026-10", "net": "2345.67", "gross": "3800.00",
                      "employer": "Acme Software GmbH"}}


def test_a_document_naming_someone_not_on_the_case_goes_to_a_person_never_verified():
    verdict = verify_type("payslip", PAYSLIP, Applicant("Priya Sharma", CASE), TODAY)
    assert verdict.status == Status.ACTION_REQUIRED and verdict.applicants == ()
    (note,) = verdict.notes
    assert note.code == "not_on_case" and "Amira Vorlage" in note.en and "nicht zu diesem Fall" in note.de


def test_a_name_read_without_confidence_is_not_held_against_the_case():
    unsure = {**PAYSLIP, "field_confidence": {"employee": 0.2}}
    verdict = verify_type("payslip", unsure, Applicant("Priya Sharma", CASE), TODAY)
    assert verdict.status == Status.VERIFIED and verdict.whose_fields() == {"applicant_id": None, "joint": False}


def test_a_persons_assignment_settles_whose_it_is_and_outside_a_case_nobody_is_matched():
    assigned = verify_type("payslip", PAYSLIP, Applicant("Priya Sharma", CASE, assigned=(2,)), TODAY)
    assert assigned.status == Status.VERIFIED and assigned.whose_fields() == {"applicant_id": 2, "joint": False}
    assert verify_type("payslip", PAYSLIP, Applicant("Priya Sharma"), TODAY).status == Status.VERIFIED


def test_the_co_applicants_passport_is_welcome_and_a_strangers_goes_to_a_person_unless_confirmed():
    passport = {"fields": {"surname": "MUELLER", "given_names": "JONAS", "expiry_date": "2031-01-01",
                           "mrz_valid": True}}
    verdict = verify_type("id_document", passport, Applicant("Priya Sharma", CASE), TODAY)
    assert verdict.status == Status.VERIFIED and verdict.applicants == (2,)
    stranger = {"fields": {**passport["fields"], "surname": "VORLAGE", "given_names": "AMIRA"}}
    doubted = verify_type("id_document", stranger, Applicant("Priya Sharma", CASE), TODAY)
    assert doubted.status == Status.ACTION_REQUIRED and doubted.notes[0].code == "value_unconfirmed"
    confirmed = {**stranger, "confirmed": {"surname": "printed_twice", "given_names": "printed_twice"}}
    rejected = verify_type("id_document", confirmed, Applicant("Priya Sharma", CASE), TODAY)
    assert rejected.status == Status.REJECTED and rejected.notes[0].code == "id_name_mismatch"


def test_an_identity_paper_whose_surname_was_not_read_names_no_one():
    from leadflow.domain.applicants import named_on
    assert named_on("id_document", {"given_names": "ANNA MARIA", "surname": None}) is None
    assert named_on("residence_permit", {"given_names": "ANNA MARIA", "surname": "ERIKSSON"}) == "ANNA MARIA ERIKSSON"
