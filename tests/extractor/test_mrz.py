"""ICAO 9303 machine-readable zones: check digits, the three formats, OCR slips."""
import json

import pytest

from leadflow.extractor.fields.id_document import parse_fields
from leadflow.extractor.mrz import check_digit, find_mrz, parse_mrz
from tests.extractor.conftest import requires_tesseract, sample

ICAO_TD3 = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10"


def test_check_digits_follow_icao_9303():
    assert check_digit("L898902C3") == "6"
    assert check_digit("740812") == "2"
    assert check_digit("120415") == "9"
    assert check_digit("<<<<<<") == "0"


def test_the_icao_specimen_passport_parses_with_every_check_passing():
    fields = parse_fields("UTOPIA Passport\n" + ICAO_TD3)
    assert fields == {
        "document_code": "P", "issuing_country": "UTO", "document_number": "L898902C3",
        "surname": "ERIKSSON", "given_names": "ANNA MARIA", "nationality": "UTO",
        "birth_date": "1974-08-12", "sex": "F", "expiry_date": "2012-04-15",
        "mrz_format": "TD3", "mrz_valid": True}


def test_a_changed_character_fails_its_check_digit_and_no_repair_of_it_counts_as_checked():
    forged = ICAO_TD3.replace("L898902C3", "L898902C4")
    as_read = parse_mrz(forged.splitlines(), "TD3")
    assert as_read.checks["document_number"] is False and not as_read.valid
    # A number one look-alike away from passing may be put right, but only ever marked as such:
    # its number and dates are then read at the unchecked confidence, never as checked.
    found = find_mrz(forged)
    assert found.repaired and found.document_number != "L898902C3", "a changed number is never taken as the true one"


def test_ocr_fillers_read_as_letters_are_repaired():
    found = find_mrz("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<1O")
    assert found.valid  # 'O' in a check-digit position is the digit 0


def test_the_published_mrz_specimens_parse_and_validate():
    items = json.loads(sample("ids/mrzpkg_mrz_test_strings.json").read_text())["items"]
    parsed = [find_mrz(item["mrz"]) for item in items]
    assert all(p is not None for p in parsed)
    bad = [i for i, item in enumerate(items) if "bad" in item["source_path"]]
    assert all(not parsed[i].valid for i in bad)
    assert sum(p.valid for p in parsed) >= 29


def test_text_without_a_zone_has_no_fields():
    assert parse_fields("Reisepass\nnothing machine readable") == {}


@requires_tesseract
@pytest.mark.parametrize("relative, number", [
    ("ids/passporteye_passport-td3.jpg", "L898902C3"),
    ("ids/passporteye_passport-td2.jpg", "D23145890"),
])
def test_a_photographed_specimen_yields_a_valid_zone_through_ocr(relative, number):
    from leadflow.extractor.reading import read_document
    fields = parse_fields(read_document(sample(relative).read_bytes()).text)
    assert fields["document_number"] == number
    assert fields["mrz_valid"] is True
