"""The case checklist."""
from leadflow.domain.checklist import CaseDocument, missing_count, progress


def doc(type_, status="VERIFIED", nationality=None, n=[0]):
    n[0] += 1
    return CaseDocument(id=str(n[0]), title=f"doc {n[0]}", status=status, type=type_, nationality=nationality)


def by_key(states):
    return {s.item.key: s for s in states}


def test_an_empty_case_misses_everything():
    states = progress([])
    assert {s.state for s in states} == {"missing"}
    assert missing_count(states) == 7


def test_three_verified_payslips_complete_the_payslips_two_do_not():
    assert by_key(progress([doc("payslip"), doc("payslip")]))["payslips"].state == "missing"
    assert by_key(progress([doc("payslip")] * 3))["payslips"].state == "done"


def test_an_item_waits_while_a_document_is_in_the_pipeline_and_shows_a_rejection():
    assert by_key(progress([doc("bank_statement", "EXTRACTING")]))["bank_statements"].state == "waiting"
    assert by_key(progress([doc("tax_assessment", "REJECTED")]))["tax_assessment"].state == "rejected"


def test_an_eu_citizen_needs_no_residence_permit_others_do():
    assert by_key(progress([doc("id_document", nationality="FRA")]))["residence_permit"].state == "not_needed"
    assert by_key(progress([doc("id_document", nationality="IND")]))["residence_permit"].state == "missing"
    assert by_key(progress([]))["residence_permit"].state == "missing"
