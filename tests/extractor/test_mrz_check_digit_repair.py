"""A zone whose check digits fail: look-alikes put right only where the zone shows the slip, other
reads of the zone combined, and every ambiguity a check digit cannot resolve left unread."""
from datetime import date

from bench.synthetic.id_document import Holder, td1
from leadflow.extractor import mrz


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
