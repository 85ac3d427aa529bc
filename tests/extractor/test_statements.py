"""Bank statements delivered as data: camt.053 XML and MT940, read without OCR."""
import pytest

from leadflow.extractor.errors import Unreadable
from leadflow.extractor.pipeline import extract
from leadflow.extractor.reading import read_document
from leadflow.extractor.sniff import sniff
from tests.extractor.conftest import sample

CAMT_SALARY = b"""<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><Stmt><Id>1</Id>
<FrToDt><FrDtTm>2026-07-01T00:00:00</FrDtTm><ToDtTm>2026-07-31T23:59:59</ToDtTm></FrToDt>
<Acct><Id><IBAN>DE05200500889043645405</IBAN></Id><Ownr><Nm>James Beispiel</Nm></Ownr>
<Svcr><FinInstnId><BICFI>PRBADEHHXXX</BICFI><Nm>Probe Bank Deutschland AG</Nm></FinInstnId></Svcr></Acct>
<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">8718.63</Amt><CdtDbtInd>CRDT</CdtDbtInd></Bal>
<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">11651.43</Amt><CdtDbtInd>CRDT</CdtDbtInd></Bal>
<Ntry><Amt Ccy="EUR">3732.80</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2026-07-31</Dt></BookgDt>
<NtryDtls><TxDtls><Purp><Cd>SALA</Cd></Purp><RmtInf><Ustrd>Entgelt 07/2026</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>
<Ntry><Amt Ccy="EUR">800.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>2026-07-02</Dt></BookgDt>
<NtryDtls><TxDtls><RmtInf><Ustrd>Miete Gehaltskonto</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>
</Stmt></BkToCstmrStmt></Document>"""


def test_statement_formats_are_told_by_their_content():
    assert sniff(CAMT_SALARY) == "camt053"
    assert sniff(sample("bank-statements/stan_PB_KAZ_KtoNr_9999999999_06-04-2017_1200.expected.mt940.sta")
                 .read_bytes()) == "mt940"
    assert sniff(b"<?xml version='1.0'?><Invoice/>") is None


def test_a_camt053_statement_yields_account_period_balances_and_salary():
    data = extract(CAMT_SALARY)
    assert (data["document_type"], data["confidence"], data["pages"]) == ("bank_statement", 0.99, 1)
    assert data["content"]["fields"] == {
        "bank": "Probe Bank Deutschland AG", "iban": "DE05200500889043645405", "holder": "James Beispiel",
        "period_start": "2026-07-01", "period_end": "2026-07-31", "opening_balance": "8718.63",
        "closing_balance": "11651.43", "salary_credits": ["3732.80"],
        "bookings": [{"date": "2026-07-31", "counterparty": None, "purpose": "Entgelt 07/2026", "amount": "3732.80"},
                     {"date": "2026-07-02", "counterparty": None, "purpose": "Miete Gehaltskonto", "amount": "-800.00"}]}
    assert data["content"]["pages"][0]["method"] == "xml"


@pytest.mark.parametrize("relative", ["bank-statements/genkgo-camt_camt053.v2.minimal.xml",
                                      "bank-statements/genkgo-camt_camt053.v8.xml"])
def test_the_camt053_samples_match_their_expected_balances(relative):
    fields = extract(sample(relative).read_bytes())["content"]["fields"]
    # genkgo/camt's expected parse: opening 18.15 (credit), closing 27.00 debit.
    assert (fields["opening_balance"], fields["closing_balance"]) == ("18.15", "-27.00")
    assert fields["iban"] == "NL26VAYB8060476890"


def test_an_mt940_statement_yields_account_and_balances():
    data = extract(sample("bank-statements/stan_PB_KAZ_KtoNr_9999999999_06-04-2017_1200.expected.mt940.sta")
                   .read_bytes())
    fields = data["content"]["fields"]
    assert data["document_type"] == "bank_statement"
    assert fields["iban"] == "DE31200100209999999999"
    assert fields["bank"] == "PBNKDEFF"
    assert fields["opening_balance"] == "2853.82"
    assert fields["period_start"] == "2020-01-01"


def test_a_camt053_without_a_statement_is_unreadable():
    with pytest.raises(Unreadable):
        read_document(sample("malformed/genkgo-camt_camt053.v2.wrong.xml").read_bytes())
