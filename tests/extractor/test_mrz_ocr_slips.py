"""OCR slips in a machine-readable zone that the eval (bench/eval_extraction.py) found on the ID samples."""
from leadflow.extractor.fields.id_document import parse_fields
from leadflow.extractor.mrz import find_mrz
from tests.extractor.conftest import requires_tesseract, sample

# What tesseract 5 read from ids/mrzpkg_passports_ICAO_Example.png: '&' and ',' inside the zone.
ICAO_EXAMPLE_OCR = ("PSUTOERIKSSON<<ANNACMARIAS<&K<K<K<KKKKKKKKKE,\n"
                    "L898902C36UT07408122F1204159ZE184226B<<<<<10")
# What it read from ids/passporteye_53_id-d.jpg: the document code I as the digit 1.
GERMAN_ID_OCR = ("1DD<<T220001293<<<<eccccccccce\n"
                 "6408125<2010315D<<<<<<<<<<<<<4\n"
                 "MUSTERMANN<<ERIKA<<<<<<<<<<<<<")


def test_stray_punctuation_in_a_zone_line_is_read_as_a_filler():
    found = find_mrz("UTOPIA Passport\n" + ICAO_EXAMPLE_OCR)
    assert found is not None and found.valid
    assert (found.format, found.document_number, found.surname) == ("TD3", "L898902C3", "ERIKSSON")


def test_punctuation_outside_a_zone_does_not_make_one():
    assert find_mrz("Passport/ Type/ Type Country code/ Code du pays Passport Number/ N°") is None


def test_a_document_code_i_read_as_the_digit_one_is_still_an_identity_card():
    fields = parse_fields(GERMAN_ID_OCR)
    assert fields["document_code"] == "ID" and fields["issuing_country"] == "D"
    assert (fields["surname"], fields["given_names"], fields["mrz_valid"]) == ("MUSTERMANN", "ERIKA", True)


@requires_tesseract
def test_the_icao_example_passport_image_yields_a_valid_zone():
    from leadflow.extractor.reading import read_document
    fields = parse_fields(read_document(sample("ids/mrzpkg_passports_ICAO_Example.png").read_bytes()).text)
    assert fields["document_number"] == "L898902C3" and fields["mrz_valid"] is True
