"""Statements and permits worded unlike the sample issuers' are classified and read end to end:
the development layouts added for the classifier (bank statements L7-L9, residence permits L7-L8),
text PDFs through `pipeline.extract`, as the service runs them."""
import pytest

from bench.synthetic import DEVELOPMENT, SPLIT, generate
from leadflow.extractor.pipeline import extract

WORDINGS = [("bank_statement", "L7"), ("bank_statement", "L8"), ("bank_statement", "L9"),
            ("residence_permit", "L7"), ("residence_permit", "L8")]


@pytest.mark.parametrize("document_type, layout_id", WORDINGS)
def test_the_layout_is_a_development_layout(document_type, layout_id):
    assert SPLIT[f"{document_type}/{layout_id}"] == DEVELOPMENT


@pytest.mark.parametrize("document_type, layout_id", WORDINGS)
@pytest.mark.parametrize("seed", [0, 1])
def test_classified_with_confidence_and_every_printed_field_read(document_type, layout_id, seed):
    doc = generate(document_type, layout_id, seed)
    result = extract(doc.data)
    assert result["document_type"] == document_type
    assert result["confidence"] >= 0.8
    content = result["content"]
    # Text compares case-folded, as the eval compares it ("MUSTERSTADT SPARKASSE" is the bank's name).
    assert {name: _folded(content["fields"].get(name)) for name in doc.fields} == {
        name: _folded(value) for name, value in doc.fields.items()}
    # Sure enough that LeadFlow takes them without a person (it asks one under 0.5).
    assert all(content["field_confidence"][name] >= 0.5 for name in doc.fields), content["field_confidence"]


def _folded(value):
    return value.casefold() if isinstance(value, str) else value
