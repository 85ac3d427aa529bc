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


def test_too_little_text_is_rejected_as_illegible_with_advice():
    verdict = verify(Extraction("payslip", 0.9, {"text_chars": 12}), "payslip", Applicant(), TODAY)
    assert verdict.status == Status.REJECTED
    assert verdict.rejection_code == RejectionCode.ILLEGIBLE
    assert "sharper scan" in verdict.notes[0].en
