"""A type decided by a person (output_spec.document_type) is read as that type, never guessed."""
from leadflow.extractor.pipeline import extract
from tests.corpus import SAMPLES

STATEMENT = (SAMPLES / "bank-statements" / "synthetic_bank_statement_A1_01.pdf").read_bytes()


def test_a_decided_type_is_reported_with_full_confidence_and_its_fields_read():
    data = extract(STATEMENT, "reprocess", {"document_type": "bank_statement"})
    assert (data["document_type"], data["confidence"]) == ("bank_statement", 1.0)
    assert data["content"]["fields"]["iban"] == "DE86500300103975461296"


def test_a_decided_type_overrides_what_the_words_suggest():
    data = extract(STATEMENT, "reprocess", {"document_type": "payslip"})
    assert data["document_type"] == "payslip"
    assert set(data["content"]["fields"]) >= {"gross", "net", "period"}
