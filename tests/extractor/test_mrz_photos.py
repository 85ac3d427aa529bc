"""The machine-readable zone of a photographed card: turned, off level or small, read from the picture."""
import io
from datetime import date

import pytest
from PIL import Image, ImageDraw, ImageFont

from bench.synthetic.id_document import Holder, td1, td3
from leadflow.extractor import mrz
from leadflow.extractor.fields.id_document import parse_fields
from leadflow.extractor.reading import read_document
from tests.extractor.conftest import requires_tesseract

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"


class _Person:
    given, family = "Olena", "Kovalenko"


# The number avoids 1/L and 6/G: those pairs differ by 10 in ICAO values, so no check digit tells
# them apart, and a test of turning must not hinge on a font's look-alikes.
HOLDER = Holder(_Person(), "UKR", date(1988, 4, 9), "F", "T7HX52KW3", date(2031, 6, 30), date(2021, 7, 1))
CARD_ZONE = td1("AR", "D", HOLDER)
PASSPORT_ZONE = td3("P", "UKR", HOLDER)


def card_photo(lines: list[str], width: int, turn: float, background: int = 90) -> bytes:
    """A light card with a zone at its foot and some print above it, on a dark desk, as a JPEG."""
    card = Image.new("L", (1000, 630), 235)
    draw = ImageDraw.Draw(card)
    draw.rectangle((40, 60, 300, 380), fill=170)  # the holder's photo
    label = ImageFont.truetype(FONT, 30)
    for index, text in enumerate(("AUFENTHALTSTITEL", "KOVALENKO", "OLENA", "GÜLTIG BIS 30.06.2031")):
        draw.text((340, 70 + 60 * index), text, fill=40, font=label)
    zone_font = ImageFont.truetype(FONT, 10)
    size = 10 * 920 / draw.textlength(lines[0], font=zone_font)  # each line spans the card
    zone_font = ImageFont.truetype(FONT, round(size))
    top = 630 - 40 - len(lines) * size * 1.3
    for index, line in enumerate(lines):
        draw.text((40, top + index * size * 1.3), line, fill=20, font=zone_font)
    card = card.resize((width, round(width * 630 / 1000)), Image.LANCZOS)
    desk = Image.new("L", (card.width + 200, card.height + 200), background)
    desk.paste(card, (100, 100))
    photo = desk.rotate(turn, resample=Image.BICUBIC, expand=True, fillcolor=background)
    out = io.BytesIO()
    photo.convert("RGB").save(out, format="JPEG", quality=85)
    return out.getvalue()


def test_the_generated_zones_pass_their_own_check_digits():
    # The test images below are only worth something if the zones drawn on them are right.
    assert mrz.find_mrz("\n".join(CARD_ZONE)).valid
    assert mrz.find_mrz("\n".join(PASSPORT_ZONE)).valid


@requires_tesseract
@pytest.mark.parametrize("turn", [90, 180, 263])
def test_a_card_photographed_turned_yields_its_zone(turn):
    fields = parse_fields(read_document(card_photo(CARD_ZONE, 1000, turn)).text)
    assert fields["mrz_valid"] is True
    assert (fields["document_code"], fields["issuing_country"], fields["document_number"]) == ("AR", "D", "T7HX52KW3")
    assert (fields["surname"], fields["given_names"], fields["expiry_date"]) == ("KOVALENKO", "OLENA", "2031-06-30")


@requires_tesseract
def test_a_small_card_a_few_degrees_off_level_is_enlarged_and_levelled():
    fields = parse_fields(read_document(card_photo(CARD_ZONE, 330, 6)).text)
    assert fields["mrz_valid"] is True and fields["document_number"] == "T7HX52KW3"


@requires_tesseract
def test_a_passport_zone_photographed_upside_down():
    fields = parse_fields(read_document(card_photo(PASSPORT_ZONE, 1300, 178)).text)
    assert (fields["mrz_format"], fields["mrz_valid"], fields["nationality"]) == ("TD3", True, "UKR")


@requires_tesseract
def test_the_search_stays_within_its_budget_of_tesseract_runs(monkeypatch):
    runs = []
    real = mrz.ocr_zone
    monkeypatch.setattr(mrz, "ocr_zone", lambda image: runs.append(image.size) or real(image))
    # A blank card: nothing to find, so every attempt is made, and no more.
    blank = Image.open(io.BytesIO(card_photo(["<" * 30] * 3, 800, 45))).convert("L")
    mrz.zone_text(blank, "")
    assert 0 < len(runs) <= mrz.MAX_ZONE_RUNS


def test_a_page_of_prose_is_not_searched_for_a_zone(monkeypatch):
    monkeypatch.setattr(mrz, "ocr_zone", lambda image: pytest.fail("no zone search on a payslip"))
    text = " ".join(["Gehaltsabrechnung Oktober Bruttobezüge Nettobezüge Auszahlungsbetrag"] * 20)
    assert mrz.zone_text(Image.new("L", (50, 50), 255), text) == text


def test_digits_in_the_name_field_are_the_letters_they_resemble():
    zone = mrz.find_mrz("P<UKRK0VALENK0<<0LENA<<<<<<<<<<<<<<<<<<<<<<<\n" + PASSPORT_ZONE[1])
    assert (zone.surname, zone.given_names, zone.valid) == ("KOVALENKO", "OLENA", True)


def test_a_visa_zone_is_not_taken_for_a_padded_passport_zone():
    from bench.synthetic.id_document import visa
    zone = mrz.find_mrz("\n".join(visa("VD", "D", HOLDER, 36)))
    assert (zone.format, zone.document_code, zone.valid) == ("TD2", "VD", True)


def test_a_shortened_closing_run_of_fillers_is_padded():
    # Tesseract merges a long run of '<' into fewer: the first card line arrives too short.
    short = [CARD_ZONE[0][:-4], *CARD_ZONE[1:]]
    assert mrz.find_mrz("\n".join(short)).valid


def test_names_printed_on_the_card_too_are_trusted_and_a_one_letter_clash_goes_to_a_person():
    from leadflow.extractor.fields.id_document import read
    zone = "\n".join(CARD_ZONE)
    assert read("KOVALENKO\nOLENA\n" + zone).confidence["surname"] >= 0.95
    # The card prints KOVALENKO; the zone as read says KOVALENKQ: one of them slipped.
    slipped = zone.replace("KOVALENKO<<", "KOVALENKQ<<")
    clash = read("Name KOVALENKO\nVorname OLENA\n" + slipped)
    assert clash.fields["mrz_valid"] is True and clash.confidence["surname"] < 0.5


def test_a_name_line_that_gained_a_character_is_not_trusted():
    from leadflow.extractor.fields.id_document import read
    gained = [*CARD_ZONE[:2], "L" + CARD_ZONE[2]]  # 31 characters: OCR added one
    found = read("\n".join(gained))
    assert found.fields["surname"] == "LKOVALENKO" and found.confidence["surname"] < 0.5


# Short lines of prose: `clean` turns their lower case into fillers, so a "zone" parses out of them.
LETTER = """Abrechnung der Verguetung fuer Oktober
Arbeitgeber und Arbeitnehmer laut Vertrag
Personalnummer und Kostenstelle des Betriebs
Steuerklasse und Kinderfreibetrag wie bisher
Auszahlung auf das bekannte Konto am Monatsende
Vermoegenswirksame Leistungen sind enthalten
Bei Fragen wenden Sie sich an die Personalabteilung"""


def test_a_zone_parsed_out_of_prose_does_not_start_the_zone_search(monkeypatch):
    assert mrz.find_mrz(LETTER) is not None  # what the search used to start on
    monkeypatch.setattr(mrz, "ocr_zone", lambda image: pytest.fail("no zone search on a payslip"))
    assert mrz.zone_text(Image.new("L", (50, 50), 255), LETTER) == LETTER


def test_zone_lines_read_as_such_make_any_page_worth_the_search():
    assert mrz._worth_looking(LETTER + "\n" + "\n".join(CARD_ZONE), None, debris=False)
    assert mrz._worth_looking(LETTER + "\nMRZ >><<<<<<<<<<<<<<<<<<<<<<<<<<<<<<", None, debris=False)  # upside down


def test_the_band_comes_from_the_word_boxes_of_the_page_pass():
    header = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext"
    rows = [(1, 1, "AUFENTHALTSTITEL", 340, 70, 300, 30),
            (2, 1, CARD_ZONE[0], 40, 500, 920, 24), (3, 1, CARD_ZONE[1][:18], 40, 531, 560, 24),
            (3, 2, CARD_ZONE[1][18:], 610, 531, 350, 24), (4, 1, CARD_ZONE[2], 40, 562, 920, 24)]
    tsv = "\n".join([header] + [f"5\t1\t1\t1\t{line}\t{word}\t{x}\t{y}\t{w}\t{h}\t90\t{text}"
                                for line, word, text, x, y, w, h in rows])
    # The number line holds fillers too here; a line as long as the zone's next to it would count.
    assert mrz._band_from_tsv(tsv) == (40, 500, 960, 586, 24.0, False)
    assert mrz._band_from_tsv(header + "\n5\t1\t1\t1\t1\t1\t40\t500\t920\t24\t90\tGehaltsabrechnung") is None


@requires_tesseract
def test_a_zone_the_page_pass_read_is_read_again_from_its_band_only(monkeypatch):
    # The names read doubtfully (a filler read as K): the band the page pass found is read again,
    # and no search of the picture for angles, turns or the whole page is made.
    photo = Image.open(io.BytesIO(card_photo(CARD_ZONE, 1000, 0))).convert("L")
    from leadflow.extractor import ocr
    seen = ocr.ocr_page(photo)
    assert mrz._band_from_tsv(seen.tsv) is not None
    assert "OLENA<<" in seen.text
    slipped = seen.text.replace("OLENA<<", "OLENA<K", 1)
    assert mrz._doubtful_names(mrz.find_mrz(slipped))
    runs = []
    original = mrz.ocr_zone
    monkeypatch.setattr(mrz, "ocr_zone", lambda image: runs.append(image.size) or original(image))
    monkeypatch.setattr(mrz, "_Attempts", lambda *a, **k: pytest.fail("the picture was searched"))
    text = mrz.zone_text(photo, slipped, tsv=seen.tsv)
    assert 1 <= len(runs) <= 2 and all(height < photo.height / 2 for _, height in runs)
    fields = parse_fields(text)
    assert (fields["mrz_valid"], fields["surname"], fields["given_names"]) == (True, "KOVALENKO", "OLENA")


def test_a_photo_whose_zone_reads_nothing_upright_is_tried_turned_over_before_stretched(monkeypatch):
    tried = []
    for name in ("band", "stretched_band", "flipped_band", "page"):
        monkeypatch.setattr(mrz._Attempts, name,
                            lambda self, name=name: tried.append(name) or Image.new("L", (120, 40), 255))
    monkeypatch.setattr(mrz, "ocr_zone", lambda picture: "")
    assert mrz.read_zone(Image.new("L", (400, 300), 255), runs=2) is None
    assert tried == ["band", "flipped_band"]
