"""The case checks across documents: each check's outcomes, tolerant name matching, the income summary."""
from datetime import date
from decimal import Decimal

import pytest

from dataclasses import replace

from leadflow.domain import case_checks as cc
from leadflow.domain.applicants import CO_APPLICANT, Person
from leadflow.domain.case_checks import CaseFacts, DocumentFacts

TODAY = date(2026, 11, 15)


def doc(type_, id_=None, title=None, **fields):
    return DocumentFacts(id_ or f"{type_}-{fields.get('period', '')}", title or type_, type_, fields)


def passport(surname="MUELLER", given="JOERG PETER", expiry="2031-05-01"):
    return doc("id_document", "id", "Passport", surname=surname, given_names=given, expiry_date=expiry)


def payslip(period="2026-10", net="2345.67", gross="3800.00", employee="Jörg Müller", employer="Acme Software GmbH",
            **more):
    return doc("payslip", f"slip-{period}", f"Payslip {period}", period=period, net=net, gross=gross,
               employee=employee, employer=employer, **more)


def statement(start="2026-10-01", end="2026-10-31", holder="Jörg Müller", bookings=None, **more):
    return doc("bank_statement", f"stmt-{end}", f"Statement {end[:7]}", period_start=start, period_end=end,
               holder=holder, bookings=bookings, **more)


def booking(day, counterparty, purpose, amount):
    return {"date": day, "counterparty": counterparty, "purpose": purpose, "amount": amount}


def check(fn, *documents, today=TODAY, payout=None):
    return fn(CaseFacts(tuple(documents), today, payout))


# --- identity ------------------------------------------------------------------------------------

@pytest.mark.parametrize("a, b", [
    ("Jörg Müller", "MUELLER JOERG"),               # order, umlauts as the MRZ writes them
    ("Dr. Jörg Müller", "Jörg Peter Müller"),      # a title, a middle name one of them leaves out
    ("José Álvarez", "JOSE ALVAREZ"),               # accents
    ("Müller, Jörg", "Joerg Mueller"),              # comma order, transliteration
    ("J. Müller", "Jörg Müller"),                   # an initial for a given name
    ("Herrn Jörg Müller und Frau Anna Müller", "Jörg Müller"),  # a joint account
    ("Sean O'Neill", "SEAN ONEILL"),
])
def test_names_written_differently_are_one_person(a, b):
    assert cc.same_person(a, b)


@pytest.mark.parametrize("a, b", [
    ("Jörg Müller", "Anna Schmidt"),
    ("Jörg Müller", "Jörg Meyer"),
    ("J. M.", "Jörg Müller"),                       # initials alone prove nothing
    ("Jörg Müller", None),
])
def test_different_names_are_not_one_person(a, b):
    assert not cc.same_person(a, b)


def test_identity_is_ok_when_every_document_names_the_passport_holder():
    result = check(cc.identity, passport(), payslip(employee="Dr. Jörg Müller"), statement(holder="MUELLER, JOERG"))
    assert result.outcome == cc.OK
    assert set(result.documents) == {"id", "slip-2026-10", "stmt-2026-10-31"}


def test_identity_is_a_problem_when_a_statement_names_someone_else():
    result = check(cc.identity, passport(), payslip(), statement(holder="Anna Schmidt"))
    assert result.outcome == cc.PROBLEM
    title, reason = result.words()
    assert "Names differ" in reason and "Anna Schmidt" in reason and "Passport" in reason
    assert result.client == ()  # a mismatch is the advisor's to resolve, not shown to the client


def test_identity_without_two_names_is_not_checked():
    assert check(cc.identity, passport()).outcome == cc.NOT_CHECKED


# --- employer ------------------------------------------------------------------------------------

def test_employer_tolerates_legal_forms_and_case():
    contract = doc("employment_contract", "c", "Contract", employer="ACME Software GmbH & Co. KG", employee="Jörg Müller")
    result = check(cc.employer, contract, payslip(employer="Acme Software"),
                   doc("wage_tax_certificate", "w", "Certificate", employer="Acme Software GmbH"))
    assert result.outcome == cc.OK


def test_a_payslip_from_another_employer_than_the_contract_is_a_warning_naming_it_and_its_employer():
    contract = doc("employment_contract", "c", "Contract", employer="Acme Software GmbH")
    result = check(cc.employer, contract, payslip(employer="Globex AG"))
    assert result.outcome == cc.WARNING
    assert "Globex AG (Payslip 2026-10)" in result.words()[1] and "Acme Software GmbH" in result.words()[1]


def test_a_certificate_of_another_employer_is_a_warning_naming_the_certificate():
    contract = doc("employment_contract", "c", "Contract", employer="Acme Software GmbH")
    result = check(cc.employer, contract, payslip(), doc("wage_tax_certificate", "w", "Certificate", employer="Globex AG"))
    assert result.outcome == cc.WARNING
    assert "Globex AG (Certificate)" in result.words()[1]
    assert set(result.documents) == {"c", "slip-2026-10", "w"}


def test_fits_is_said_only_of_documents_of_one_employer():
    certificate = doc("wage_tax_certificate", "w", "Certificate", employer="Globex AG", gross_wages="45600.00", year=2025)
    result = check(cc.certificate_gross, certificate, payslip())
    assert result.outcome == cc.NOT_CHECKED and "Acme Software GmbH (Payslip 2026-10)" in result.words()[1]
    contract = doc("employment_contract", "c", "Contract", employer="Globex AG", annual_salary="45600.00")
    assert check(cc.contract_salary, contract, payslip()).outcome == cc.NOT_CHECKED
    assert check(cc.certificate_gross, doc("wage_tax_certificate", "w", "Certificate", employer="Acme Software",
                                           gross_wages="45600.00", year=2025), payslip()).outcome == cc.OK


PRIYA, JONAS = Person(1, "Priya Sharma"), Person(2, "Jonas Weber", role=CO_APPLICANT)


def mine(document, *applicants):
    return replace(document, applicants=applicants)


def test_each_applicant_is_judged_on_their_own_documents_and_each_check_names_them():
    documents = (mine(payslip(employee="Priya Sharma", employer="Acme Software GmbH"), 1),
                 mine(payslip("2026-09", employee="Jonas Weber", employer="Globex AG", net="3000.00"), 2),
                 mine(statement(holder="Priya Sharma und Jonas Weber", bookings=[salary(amount="2345.67"),
                      booking("2026-09-30", "Globex AG", "Gehalt", "3000.00")]), 1, 2),
                 mine(doc("wage_tax_certificate", "w", "Certificate", employer="Globex AG", employee="Jonas Weber",
                          gross_wages="40000.00", year=2025), 2))
    results = cc.run_checks(CaseFacts(documents, TODAY, people=(PRIYA, JONAS)))
    identity = [r for r in results if r.key == "identity"]
    assert [(r.applicant, r.outcome) for r in identity] == [("Priya Sharma", cc.OK), ("Jonas Weber", cc.OK)]
    assert set(identity[0].documents) == {"slip-2026-10", "stmt-2026-10-31"}
    employer = {r.applicant: r for r in results if r.key == "employer"}
    # Jonas's certificate and payslip name one employer; Priya's payslip is not held against him.
    assert employer["Jonas Weber"].outcome == cc.OK and employer["Priya Sharma"].outcome == cc.NOT_CHECKED
    credits = {r.applicant: r.outcome for r in results if r.key == "income_credits"}
    assert credits == {"Priya Sharma": cc.OK, "Jonas Weber": cc.OK}  # the joint statement shows both salaries
    assert [r.applicant for r in results if r.key == "red_flags"] == [None]


def test_a_document_of_another_person_on_an_applicant_is_a_problem_naming_the_applicant():
    documents = (mine(payslip(employee="Anna Schmidt"), 1),)
    result = next(r for r in cc.run_checks(CaseFacts(documents, TODAY, people=(PRIYA,))) if r.key == "identity")
    assert result.outcome == cc.PROBLEM and "Priya Sharma" in result.words()[1] and "Anna Schmidt" in result.words()[1]


def test_the_household_income_is_each_applicant_s_and_their_total():
    documents = (mine(payslip(net="2000.00", gross="3000.00"), 1), mine(payslip(net="1500.00", gross="2500.00"), 2),
                 mine(statement(bookings=[salary(amount="2000.00"), salary(amount="1500.00")]), 1, 2))
    income = cc.household(CaseFacts(documents, TODAY, people=(PRIYA, JONAS)))
    assert [(name, s.average_net) for name, s in income.people] == [("Priya Sharma", Decimal("2000.00")),
                                                                    ("Jonas Weber", Decimal("1500.00"))]
    assert (income.average_net, income.annual_gross) == (Decimal("3500.00"), Decimal("66000.00"))
    assert income.credits_by_month == {"2026-10": Decimal("3500.00")}, "a joint account's credits counted once"


def test_a_contract_for_a_job_not_yet_begun_is_a_warning_not_a_problem():
    contract = doc("employment_contract", "c", "Contract", employer="Vorlage Versicherungs-AG", start_date="2027-01-01",
                   annual_salary="56000.00")
    result = check(cc.employer, contract, payslip(employer="Platzhalter Pharma AG"))
    assert result.outcome == cc.WARNING and "2027-01-01" in result.words()[1]
    assert check(cc.contract_salary, contract, payslip()).outcome == cc.WARNING


# --- income --------------------------------------------------------------------------------------

def salary(day="2026-10-30", amount="2345.67"):
    return booking(day, "Acme Software GmbH", "Gehalt Oktober 2026", amount)


def test_net_pay_credited_on_the_statement_of_the_month_is_ok():
    result = check(cc.net_credited, payslip(), statement(bookings=[salary()]))
    assert result.outcome == cc.OK


def test_net_pay_paid_early_next_month_counts():
    result = check(cc.net_credited, payslip(), statement("2026-11-01", "2026-11-30", bookings=[salary("2026-11-02")]),
                   today=date(2026, 12, 5))
    assert result.outcome == cc.OK


def test_a_salary_credit_that_differs_from_net_pay_is_a_problem():
    result = check(cc.net_credited, payslip(), statement(bookings=[salary(amount="2745.67")]))
    assert result.outcome == cc.PROBLEM
    assert "2,745.67" in result.words()[1]


def test_payout_is_compared_when_deductions_follow_net_pay():
    result = check(cc.net_credited, payslip(payout="2300.00"), statement(bookings=[salary(amount="2300.00")]))
    assert result.outcome == cc.OK


def test_statement_credits_without_bookings_are_compared_too():
    result = check(cc.net_credited, payslip(), statement(salary_credits=["2345.67"]))
    assert result.outcome == cc.OK


def test_no_salary_credit_at_all_is_a_warning():
    result = check(cc.net_credited, payslip(), statement(bookings=[booking("2026-10-03", "Rewe", "Einkauf", "-54.20")]))
    assert result.outcome == cc.WARNING


def test_without_a_statement_of_the_month_income_credits_are_not_checked():
    assert check(cc.net_credited, payslip(), statement("2026-06-01", "2026-06-30")).outcome == cc.NOT_CHECKED


@pytest.mark.parametrize("annual, outcome", [
    ("45600.00", cc.OK),           # 12 × 3,800
    ("49400.00", cc.OK),           # 13 salaries of 3,800
    ("58000.00", cc.WARNING),      # 14 salaries of 4,143: 8 % above the gross
    ("72000.00", cc.PROBLEM),
])
def test_contract_salary_against_payslip_gross(annual, outcome):
    contract = doc("employment_contract", "c", "Contract", annual_salary=annual)
    assert check(cc.contract_salary, contract, payslip()).outcome == outcome


@pytest.mark.parametrize("certified, outcome", [
    ("44000.00", cc.OK),
    ("37000.00", cc.WARNING),
    ("20000.00", cc.PROBLEM),
])
def test_certificate_gross_against_twelve_payslips(certified, outcome):
    certificate = doc("wage_tax_certificate", "w", "Certificate", gross_wages=certified, year=2025)
    slips = [payslip("2026-10"), payslip("2026-09"), payslip("2026-08")]
    assert check(cc.certificate_gross, certificate, *slips).outcome == outcome


# --- red flags -----------------------------------------------------------------------------------

@pytest.mark.parametrize("line, outcome", [
    (booking("2026-10-05", "Stadtwerke", "RUECKLASTSCHRIFT Strom 10/2026", "-82.00"), cc.PROBLEM),
    (booking("2026-10-05", "Creditreform Inkasso", "Az 4711", "-120.00"), cc.PROBLEM),
    (booking("2026-10-05", "Amtsgericht", "Pfändung Az 12 M 345/26", "-400.00"), cc.PROBLEM),
    (booking("2026-10-05", "Santander Consumer Bank", "Rate 10/2026", "-310.00"), cc.WARNING),
    (booking("2026-10-30", "Musterbank", "Dispozinsen", "-12.40"), cc.WARNING),
])
def test_red_flags_in_the_bookings(line, outcome):
    result = check(cc.red_flags, statement(bookings=[salary(), line]))
    assert result.outcome == outcome
    assert result.findings and result.client == ()


def test_a_negative_balance_is_an_overdraft():
    result = check(cc.red_flags, statement(bookings=[salary()], closing_balance="-230.00"))
    assert result.outcome == cc.WARNING


def test_balances_without_bookings_cannot_clear_a_statement():
    assert check(cc.red_flags, statement(closing_balance="1200.00")).outcome == cc.NOT_CHECKED


def test_ordinary_bookings_raise_no_flag():
    lines = [salary(), booking("2026-10-03", "Rewe", "Einkauf", "-54.20"),
             booking("2026-10-01", "Hausverwaltung", "Miete Oktober", "-950.00"),
             booking("2026-10-15", "Mutter", "Kredit zurück", "200.00")]  # money coming in is no instalment
    assert check(cc.red_flags, statement(bookings=lines)).outcome == cc.OK


def test_red_flag_labels_are_translated_with_the_reason():
    result = check(cc.red_flags, statement(bookings=[booking("2026-10-05", "EOS", "Inkasso", "-1.00")]))
    german = {"Found on the statements: {lines}": "Auf den Kontoauszügen: {lines}", "debt collection": "Inkasso"}
    assert result.words(lambda s: german.get(s, s))[1].startswith("Auf den Kontoauszügen: Inkasso: 2026-10-05 EOS")


# --- validity ------------------------------------------------------------------------------------

def test_a_passport_valid_past_the_planned_payout_is_ok():
    assert check(cc.identity_valid, passport(expiry="2027-06-01"), payout=date(2027, 3, 1)).outcome == cc.OK


def test_a_passport_expiring_before_the_payout_must_be_replaced():
    result = check(cc.identity_valid, passport(expiry="2027-02-01"), payout=date(2027, 3, 1))
    assert result.outcome == cc.PROBLEM and result.client == ("id",)


def test_without_a_payout_date_papers_must_last_ninety_days():
    assert check(cc.identity_valid, passport(expiry="2027-01-10")).outcome == cc.PROBLEM
    assert check(cc.identity_valid, passport(expiry="2027-03-01")).outcome == cc.OK


def test_recent_payslips_and_statements_are_ok():
    assert check(cc.recent, payslip("2026-10"), statement()).outcome == cc.OK


def test_a_payslip_older_than_three_months_must_be_replaced():
    result = check(cc.recent, payslip("2026-10"), payslip("2026-07"))
    assert result.outcome == cc.PROBLEM and result.client == ("slip-2026-07",)


def test_an_old_payslip_beside_three_recent_ones_is_not_needed_any_more():
    result = check(cc.recent, payslip("2026-10"), payslip("2026-09"), payslip("2026-08"), payslip("2026-06"))
    assert result.outcome == cc.OK and result.client == ()


def test_a_payslip_ages_out_on_the_first_of_month_four():
    august = payslip("2026-08")
    assert not cc.is_stale(august, date(2026, 11, 30))
    assert cc.is_stale(august, date(2026, 12, 1))
    old_statement = statement("2026-07-01", "2026-07-31")
    assert not cc.is_stale(old_statement, date(2026, 10, 31))
    assert cc.is_stale(old_statement, date(2026, 11, 1))


def test_the_day_a_document_ages_out_is_known_from_its_content_so_the_sweep_reads_it_only_then():
    assert cc.stale_on(payslip("2026-08")) == date(2026, 12, 1)
    assert cc.stale_on(statement("2026-07-01", "2026-07-31")) == date(2026, 11, 1)
    assert cc.stale_on(statement("2026-07-01", "2026-07-01")) == date(2026, 11, 1)
    for month in range(1, 13):
        for document in (payslip(f"2025-{month:02d}"), statement(f"2025-{month:02d}-01", f"2025-{month:02d}-28")):
            day = cc.stale_on(document)
            assert not cc.is_stale(document, date.fromordinal(day.toordinal() - 1)) and cc.is_stale(document, day)
    assert cc.stale_on(DocumentFacts("d", "Payslip", "payslip", {})) is None, "no period read: never"
    assert cc.stale_on(DocumentFacts("d", "Contract", "employment_contract", {})) is None


# --- the case ------------------------------------------------------------------------------------

def test_run_checks_lists_every_check_and_the_worst_outcome():
    results = cc.run_checks(CaseFacts((passport(), payslip(), statement(bookings=[salary()])), TODAY))
    assert [r.key for r in results] == ["identity", "employer", "income_credits", "income_contract",
                                        "income_certificate", "red_flags", "identity_valid", "recent"]
    assert cc.worst(results) == cc.OK
    results = cc.run_checks(CaseFacts((passport(), payslip(employee="Anna Schmidt")), TODAY))
    assert cc.worst(results) == cc.PROBLEM


def test_income_summary_averages_the_last_three_payslips():
    slips = [payslip("2026-10", net="2400.00", gross="3900.00"), payslip("2026-09", net="2300.00", gross="3800.00"),
             payslip("2026-08", net="2200.00", gross="3700.00"), payslip("2026-07", net="100.00", gross="100.00")]
    statements = [statement(bookings=[salary(amount="2400.00")]),
                  statement("2026-09-01", "2026-09-30", bookings=[salary("2026-09-30", "2300.00")])]
    summary = cc.income_summary(CaseFacts((*slips, *statements), TODAY))
    assert summary.average_net == Decimal("2300.00")
    assert summary.average_gross == Decimal("3800.00")
    assert summary.annual_gross == Decimal("45600.00")
    assert summary.payslips == ("slip-2026-10", "slip-2026-09", "slip-2026-08")
    assert summary.credits_by_month == {"2026-10": Decimal("2400.00"), "2026-09": Decimal("2300.00")}


def test_every_check_reads_in_german_from_the_catalog():
    from leadflow.notes import _catalog
    german = _catalog("de").gettext
    results = cc.run_checks(CaseFacts((passport(), payslip(employee="Anna Schmidt"),
                                       statement(bookings=[booking("2026-10-05", "EOS", "Inkasso", "-1.00")])), TODAY))
    said = {r.key: r.words(german) for r in results}
    assert said["identity"][0] == "Dieselbe Person auf allen Unterlagen"
    assert said["identity"][1].startswith("Namen weichen ab: Anna Schmidt (Payslip 2026-10)")
    assert said["red_flags"][1].startswith("Auf den Kontoauszügen gefunden: Inkasso: 2026-10-05 EOS")
    english = {r.key: r.words()[0] for r in results}
    assert all(said[key][0] != english[key] for key in said), "every check's title is translated"
