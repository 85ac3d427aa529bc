"""A bank statement's bookings: date, counterparty, purpose and amount from its layout, flat text,
camt.053 and MT940."""
from decimal import Decimal

from leadflow.extractor.fields import bookings
from leadflow.extractor.pipeline import extract
from leadflow.extractor.reading import read_document
from tests.extractor.conftest import sample
from tests.extractor.test_statements import CAMT_SALARY


def test_a_statement_pdf_yields_every_booking_with_its_counterparty_and_sign():
    content = extract(sample("bank-statements/synthetic_bank_statement_A1_01.pdf").read_bytes())["content"]
    lines = content["fields"]["bookings"]
    assert len(lines) == 12  # the generator's count (its expected.json: details.bookings)
    assert content["field_confidence"]["bookings"] >= 0.9
    assert lines[0] == {"date": "2026-08-03", "counterparty": "Hausverwaltung Beispiel GmbH",
                        "purpose": "Dauerauftrag Miete Platzhalterplatz 15b", "amount": "-990.00"}
    assert lines[-1] == {"date": "2026-08-31", "counterparty": "Platzhalter Pharma AG",
                         "purpose": "Lohn/Gehalt Entgelt 08/2026 Pers.-Nr. 95238", "amount": "2351.92"}
    # The sums the statement prints: what left the account and what came in.
    assert sum(Decimal(b["amount"]) for b in lines if b["amount"].startswith("-")) == Decimal("-1942.86")
    assert sum(Decimal(b["amount"]) for b in lines if not b["amount"].startswith("-")) == Decimal("2351.92")


def test_a_card_payments_time_line_is_not_a_booking_of_its_own():
    reading = read_document(sample("bank-statements/synthetic_bank_statement_A1_01.pdf").read_bytes())
    found = bookings.in_text(reading.text)
    card = next(b for b in found if b["date"] == "2026-08-12" and b["amount"] == "-55.67")
    assert card["purpose"] == "Kartenzahlung" and card["counterparty"] == "Lebensmittel Muster KG Beispielhausen"
    assert len(found) == 12


def test_flat_text_bookings_keep_the_booking_type_that_names_a_returned_debit():
    text = ("Kontoauszug 10/2026\n"
            "05.10.2026 05.10.2026 Rücklastschrift Stadtwerke Beispielhausen -61,00\n"
            "Abschlag Strom 10/2026 mangels Deckung\n"
            "06.10. 06.10. Überweisung Creditreform Inkasso GmbH 120,00 S\n"
            "Neuer Kontostand 1.000,00\n")
    found = bookings.in_text(text)
    assert found == [
        {"date": "2026-10-05", "counterparty": "Stadtwerke Beispielhausen",
         "purpose": "Rücklastschrift Abschlag Strom 10/2026 mangels Deckung", "amount": "-61.00"},
        {"date": "2026-10-06", "counterparty": "Creditreform Inkasso GmbH", "purpose": "Überweisung", "amount": "-120.00"},
    ]


def test_camt053_and_mt940_entries_are_bookings():
    camt = extract(CAMT_SALARY)["content"]["fields"]["bookings"]
    assert camt[0] == {"date": "2026-07-31", "counterparty": None, "purpose": "Entgelt 07/2026", "amount": "3732.80"}
    mt940 = extract(sample("bank-statements/stan_PB_KAZ_KtoNr_9999999999_06-04-2017_1200.expected.mt940.sta")
                    .read_bytes())["content"]["fields"]["bookings"]
    assert mt940 and mt940[0]["date"] == "2020-01-19" and "KINDERGELD" in mt940[0]["purpose"]


def test_the_postbank_statement_dates_its_day_month_bookings_and_leaves_its_footer_out():
    fields = extract(sample("bank-statements/stan_PB_KAZ_KtoNr_9999999999_06-04-2017_1200.pdf").read_bytes())[
        "content"]["fields"]
    lines = fields["bookings"]
    assert len(lines) == 11 and all(b["date"] and b["date"].startswith("2020-01-") for b in lines)
    pay = [b for b in lines if "BEZÜGE" in (b["purpose"] or "")]
    assert [b["amount"] for b in pay] == ["2780.70"] == fields["salary_credits"]
    assert not any("Dispositionskredit" in (b["purpose"] or "") for b in lines), "the account's terms are no booking"
