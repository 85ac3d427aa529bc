"""The case checklist."""
from leadflow.domain.applicants import CO_APPLICANT, Person, needs_residence_permit
from leadflow.domain.checklist import CaseDocument, asks_citizenship, missing_count, progress

CLIENT = Person(1, "Priya Sharma", "IN")
PARTNER = Person(2, "Jonas Weber", "DE", CO_APPLICANT)


def doc(type_, status="VERIFIED", nationality=None, applicants=(), n=[0]):
    n[0] += 1
    return CaseDocument(id=str(n[0]), title=f"doc {n[0]}", status=status, type=type_, nationality=nationality,
                        applicants=applicants)


def by_key(states):
    return {s.item.key: s for s in states}


def test_an_empty_case_misses_everything_but_a_residence_permit_nobody_knows_is_needed():
    states = progress([])
    assert {s.state for s in states if s.item.key != "residence_permit"} == {"missing"}
    assert by_key(states)["residence_permit"].state == "not_needed"
    assert missing_count(states) == 6


def test_three_verified_payslips_complete_the_payslips_two_do_not():
    assert by_key(progress([doc("payslip"), doc("payslip")]))["payslips"].state == "missing"
    assert by_key(progress([doc("payslip")] * 3))["payslips"].state == "done"


def test_an_item_waits_while_a_document_is_in_the_pipeline_and_shows_a_rejection():
    assert by_key(progress([doc("bank_statement", "EXTRACTING")]))["bank_statements"].state == "waiting"
    assert by_key(progress([doc("tax_assessment", "REJECTED")]))["tax_assessment"].state == "rejected"


def test_an_eu_citizen_needs_no_residence_permit_others_do():
    assert by_key(progress([doc("id_document", nationality="FRA")]))["residence_permit"].state == "not_needed"
    assert by_key(progress([doc("id_document", nationality="IND")]))["residence_permit"].state == "missing"
    unknown = by_key(progress([]))["residence_permit"]
    assert (unknown.state, unknown.why) == ("not_needed", "citizenship_unknown")


def test_whether_a_citizenship_needs_a_residence_permit():
    assert [needs_residence_permit(code) for code in ("FR", "de", "CH", "NO", "FRA", "D", "IN", "USA", "", None)] == [
        False, False, False, False, False, False, True, True, None, None]


def test_the_applicant_s_own_citizenship_decides_and_an_unknown_one_is_asked_for():
    assert by_key(progress([], (CLIENT,)))["residence_permit"].state == "missing"
    assert by_key(progress([], (Person(1, "Anna Berg", "AT"),)))["residence_permit"].why == "free_movement"
    unknown = Person(1, "Sam Doe")
    assert asks_citizenship(progress([], (unknown,))) == [unknown]
    assert asks_citizenship(progress([], (CLIENT,))) == []


def test_each_applicant_has_items_of_their_own_and_a_joint_statement_counts_for_both():
    statements = [doc("bank_statement", applicants=(1, 2)) for _ in range(3)]
    slips = [doc("payslip", applicants=(2,)) for _ in range(3)]
    states = progress(statements + slips, (CLIENT, PARTNER))
    keys = [s.key for s in states]
    assert keys == ["identity", "residence_permit", "payslips", "bank_statements",
                    "identity.co_applicant", "residence_permit.co_applicant", "payslips.co_applicant",
                    "bank_statements.co_applicant", "wage_tax_certificate", "tax_assessment", "employment_contract"]
    by = {s.key: s for s in states}
    assert by["bank_statements"].state == by["bank_statements.co_applicant"].state == "done"
    assert by["payslips.co_applicant"].state == "done" and by["payslips"].state == "missing"
    # Priya (Indian) needs a residence permit, Jonas (German) does not.
    assert by["residence_permit"].state == "missing" and by["residence_permit.co_applicant"].state == "not_needed"
    # A document whose applicant is not recorded is the client's.
    assert {s.key: s for s in progress([doc("payslip")] * 3, (CLIENT, PARTNER))}["payslips"].state == "done"
