"""A zone whose check digits fail: look-alikes put right only where the zone shows the slip, other
reads of the zone combined, and every ambiguity a check digit cannot resolve left unread."""
import random
from datetime import date

from bench.synthetic.id_document import Holder, td1, td2
from leadflow.extractor import mrz
from leadflow.extractor.fields.id_document import parse_fields, read


class _Person:
    given, family = "Olena", "Kovalenko"


def holder(number: str) -> Holder:
    return Holder(_Person(), "UKR", date(1988, 4, 9), "F", number, date(2031, 6, 30), date(2021, 7, 1))


def misread(lines: list[str], line: int, position: int, char: str) -> list[str]:
    changed = list(lines)
    changed[line] = changed[line][:position] + char + changed[line][position + 1:]
    return changed


def test_a_letter_in_a_check_digit_counts_as_its_digit_in_the_composite_too():
    # Spanish residence card, scanned: the number's check digit 0 read as O. The composite weighs
    # that check digit; read as the letter O (24) it failed though every field was right.
    zone = td1("I", "ESP", holder("KRM38GWKW"))
    assert zone[0][14] == "0"
    found = mrz.find_mrz("\n".join(misread(zone, 0, 14, "O")))
    assert found.valid and found.document_number == "KRM38GWKW"


def test_a_german_number_holding_a_letter_its_alphabet_lacks_is_put_right():
    # German identity card numbers hold no O (nor A B D E I Q S U): an O there is a misread 0, and
    # of O's look-alikes only 0 is in the alphabet.
    zone = td1("ID", "D", holder("L01X00T47"))
    found = mrz.find_mrz("\n".join(misread(zone, 0, 6, "O")))
    assert found.valid and found.repaired and found.document_number == "L01X00T47"
    fields = read("\n".join(misread(zone, 0, 6, "O")))
    assert fields.fields["document_number"] == "L01X00T47" and fields.confidence["document_number"] >= 0.5


def test_1_and_l_have_one_value_so_an_i_in_a_german_number_stays_unread():
    # I is not in the German alphabet, but both its look-alikes 1 and L are, with the same value.
    zone = td1("ID", "D", holder("ZR1M6LLLX"))
    text = "\n".join(misread(zone, 0, 7, "I"))
    assert parse_fields(text)["document_number"] is None


def test_a_number_failing_its_check_digit_is_not_reported_as_read():
    zone = td2("I", "NGA", holder("T7HX52KW3"))
    text = "\n".join(misread(zone, 1, 3, "K"))  # X read as K: no look-alike the zone can show
    fields = parse_fields(text)
    assert fields["mrz_valid"] is False and fields["document_number"] is None
    assert fields["birth_date"] == "1988-04-09"  # its own check digit passes


def test_two_reads_slipping_in_different_places_combine_into_the_one_passing_number():
    zone = td2("I", "NGA", holder("T7HX52KW3"))
    first = misread(zone, 1, 4, "S")   # 5 read as S
    second = misread(zone, 1, 5, "Z")  # 2 read as Z
    found = mrz.find_mrz("\n".join(first) + "\n\n" + "\n".join(second))
    assert found.valid and found.document_number == "T7HX52KW3"


def test_two_reads_differing_where_a_check_digit_cannot_tell_leave_the_number_unread():
    # 6 and G (16) pass alike: the band's re-read saying G and the page's pass saying 6 (with a slip
    # elsewhere) leave two numbers that pass; neither is reported.
    zone = td2("I", "NGA", holder("6TN4XF7J5"))
    page = misread(zone, 1, 3, "A")  # 4 read as A: fails
    band = misread(zone, 1, 0, "G")  # 6 read as G: passes, wrongly
    assert mrz.find_mrz("\n".join(band)).valid
    text = "\n".join(page) + "\n\n" + "\n".join(band)
    assert mrz.find_mrz(text).number_disputed
    fields = read(text)
    assert fields.fields["document_number"] is None and fields.confidence["document_number"] == 0.0
    assert fields.fields["birth_date"] == "1988-04-09"


def test_a_read_with_garbled_names_is_no_evidence_against_a_clean_one():
    # Two slips of the page's pass (8 as E, 4 as A) happen to pass the check digits together; its
    # name line is garbage. The band's clean re-read is the zone.
    zone = td1("ID", "BGR", holder("8FNC4737X"))
    page = misread(misread(zone, 0, 5, "E"), 0, 9, "A")
    page[2] = "LGORCUASPORESSMARIASIOSES<<<<<"
    assert mrz.find_mrz("\n".join(page)).valid
    found = mrz.find_mrz("\n".join(page) + "\n\n" + "\n".join(zone))
    assert found.document_number == "8FNC4737X" and not found.number_disputed


def test_look_alikes_are_never_tried_where_the_zone_shows_no_slip():
    # Trying every look-alike at every place of a failing number passes a wrong number about as often
    # as the right one when the slip is not a look-alike: none of these may come back repaired.
    rng = random.Random(9303)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    slips = {"9": "S", "8": "E", "3": "8", "7": "T", "E": "F", "K": "X", "M": "N", "R": "P", "W": "V", "H": "N"}
    tried = 0
    for _ in range(300):
        number = "".join(rng.choice(alphabet) for _ in range(9))
        position = rng.randrange(9)
        if number[position] not in slips:
            continue
        zone = td1("ID", "FRA", holder(number))
        lines = misread(zone, 0, 5 + position, slips[number[position]])
        if mrz.parse_mrz(lines, "TD1").valid:
            continue
        tried += 1
        assert mrz._look_alike_repair(lines, "TD1") is None
    assert tried > 50


def test_a_zone_read_as_printed_is_not_marked_repaired():
    zone = td1("ID", "D", holder("L01X00T47"))
    found = mrz.find_mrz("\n".join(zone))
    assert found.valid and not found.repaired and not found.number_disputed and found.lines == tuple(zone)
