"""The checks every document gets, before its type's own rules."""
from datetime import date

from leadflow.domain.lifecycle import RejectionCode, Status
from leadflow.domain.verification import Applicant, Extraction, verify

TODAY = date(2026, 11, 29)
READABLE = {"text_chars": 900, "fields": {}}


def test_a_confident_known_type_matching_the_declared_kind_is_verified():
    verdict = verify(Extraction("invoice", 0.9, READABLE), "invoice", Applicant(), TODAY)
    assert verdict.status == Status.VERIFIED


def test_an_unknown_type_goes_to_a_person():
    verdict = verify(Extraction("unknown", 0.9, READABLE), None, Applicant(), TODAY)
    assert verdict.status == Status.ACTION_REQUIRED


def test_a_low_confidence_goes_to_a_person_at_the_threshold_it_does_not():
    payslip = {"text_chars": 900, "fields": {"period": "2026-10", "gross": "4000.00", "net": "2600.00"}}
    assert verify(Extraction("payslip", 0.59, payslip), None, Applicant(), TODAY).status == Status.ACTION_REQUIRED
    assert verify(Extraction("payslip", 0.6, payslip), None, Applicant(), TODAY).status == Status.VERIFIED


def test_a_declared_kind_that_differs_from_the_detected_type_goes_to_a_person_with_both_named():
    verdict = verify(Extraction("invoice", 0.95, READABLE), "payslip", Applicant(), TODAY)
    assert verdict.status == Status.ACTION_REQUIRED
    assert "a payslip" in verdict.notes[0].en and "an invoice" in verdict.notes[0].en
    assert "Gehaltsabrechnung" in verdict.notes[0].de


def test_nothing_read_of_a_file_that_passed_the_pre_check_goes_to_a_person():
    verdict = verify(Extraction("unknown", 0.0, {"text_chars": 0}), "payslip", Applicant(), TODAY)
    assert verdict.status == Status.ACTION_REQUIRED and verdict.rejection_code is None
    assert verdict.notes[0].code == "hard_to_read"


def test_a_little_text_is_the_readers_doubt_and_goes_to_a_person_not_a_rejection():
    verdict = verify(Extraction("unknown", 0.2, {"text_chars": 12}), "payslip", Applicant(), TODAY)
    assert verdict.status == Status.ACTION_REQUIRED and verdict.rejection_code is None
    assert verdict.notes[0].code == "hard_to_read"
    assert "specialist" in verdict.notes[0].en and "Fachkraft" in verdict.notes[0].de
