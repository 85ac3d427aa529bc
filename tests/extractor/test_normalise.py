"""Normalisation before reading: printed variation that changes no meaning does not decide a reading."""
import re

import pytest

from leadflow.extractor import classify
from leadflow.extractor.fields import parse as p
from leadflow.extractor.fields.finding import lexicon
from leadflow.extractor.layout import Layout, Word
from leadflow.extractor.normalise import (dehyphenate, despace, fold, fold_pattern, for_classifying,
                                          repair_numbers)


@pytest.mark.parametrize("printed, read", [
    ("V E R D I E N S T A B R E C H N U N G", "VERDIENSTABRECHNUNG"),
    ("K O N T O A U S Z U G  O K T O B E R  2 0 2 6", "KONTOAUSZUG  OKTOBER  2026"),
    ("G e h a l t s a b r e c h n u n g", "Gehaltsabrechnung"),
    ("Muster GmbH   S T E U E R B E S C H E I D", "Muster GmbH   STEUERBESCHEID"),
    # A text layer's layout rendering of wide letter spacing: two spaces between the letters.
    ("P  A  Y  S  L  I  P", "PAYSLIP"),
])
def test_a_spaced_title_is_the_word_it_spells(printed, read):
    assert despace(printed) == read


@pytest.mark.parametrize("text", [
    "Steuerklasse I  Kinder 0,5  Konfession rk",
    "a b c",  # three single letters are not yet a spaced word
    "Teil A B C der Anlage",
    "Es ist 1 2 3 Uhr",
    "IBAN DE12 3456 7890",
])
def test_normal_words_are_not_joined(text):
    assert despace(text) == text


def test_a_word_hyphenated_at_a_line_end_is_whole_and_a_compound_keeps_its_hyphen():
    assert dehyphenate("Auszahlungs-\nbetrag  1.234,56") == "Auszahlungsbetrag  1.234,56"
    assert dehyphenate("Lohn-\nSteuer") == "Lohn-\nSteuer"
    assert dehyphenate("Kranken- und Pflegeversicherung") == "Kranken- und Pflegeversicherung"


@pytest.mark.parametrize("printed, read", [
    ("1.2O4,5O", "1.204,50"),
    ("l.234,56", "1.234,56"),
    ("1.234,S6", "1.234,56"),
    ("1.B34,00", "1.834,00"),
    ("EUR1.234,56", "EUR 1.234,56"),
    ("-EUR 4.917,46", "EUR -4.917,46"),
])
def test_letters_inside_a_figure_are_read_as_the_digits_they_resemble(printed, read):
    assert repair_numbers(printed) == read


@pytest.mark.parametrize("text", ["SOLL 12", "Lohn Brutto", "BIC COBADEFFXXX", "S 12,00", "B12,00", "Oktober 2026"])
def test_words_are_no_figures(text):
    assert repair_numbers(text) == text


@pytest.mark.parametrize("printed, value", [
    ("1.234,56", "1234.56"), ("1234.56", "1234.56"), ("1,234.56", "1234.56"), ("1 234,56", "1234.56"),
    ("1.234,56-", "-1234.56"), ("EUR 1.234,56", "1234.56"), ("1.234,56 EUR", "1234.56"), ("EUR1.234,56", "1234.56"),
    ("€1.234,56", "1234.56"), ("***1.234,56", "1234.56"), ("**2.345,67**", "2345.67"), ("1.2O4,5O", "1204.50"),
    ("l.234,56", "1234.56"),
])
def test_amounts_in_every_number_style(printed, value):
    assert p.amount(printed) == value


def test_fold_compares_labels_in_one_form():
    assert fold("ÜBERWEISUNGSBETRAG") == fold("Ueberweisungsbetrag") == "ueberweisungsbetrag"
    assert fold("Straße") == fold("STRASSE")


@pytest.mark.parametrize("pattern, text", [
    ("überweisungsbetrag", "UEBERWEISUNGSBETRAG"),
    ("überweisungsbetrag", "Uberweisungsbetrag"),
    ("bezüge", "BEZUEGE"),
    ("maerz", "März"),
    ("straße", "STRASSE"),
    ("abzüge gesamt", "ABZUEGE GESAMT"),
])
def test_a_folded_label_meets_every_spelling_of_its_umlauts(pattern, text):
    assert re.fullmatch(fold_pattern(pattern), text, re.IGNORECASE)


def test_folding_leaves_escapes_classes_and_look_behinds_as_written():
    assert fold_pattern(r"\ss[äa]") == r"\ss[äa]"
    assert fold_pattern(r"(?<!due\s)date") == r"(?<!due\s)date"
    assert fold_pattern(r"(?:ab)") == r"(?:ab)"
    assert fold_pattern("beschäftigte[r]?") == "besch(?:ä|ae|a)ftigte[r]?"
    re.compile(fold_pattern(r"(?P<name>x)ü(?<=ü)"))


def test_a_lexicon_matches_labels_in_capitals_with_umlauts_spelt_out():
    payout = lexicon("überweisungs betrag", "auszahlung")
    assert payout.search("UEBERWEISUNGSBETRAG  2.345,67")
    assert payout.search("AUSZAHLUNG")
    gross = lexicon("steuerpflichtiges brutto")
    assert gross.search("STEUERPFLICHTIGES BRUTTO  3.400,00")


def test_the_classifier_reads_a_spaced_title_and_capitals_without_umlauts():
    spaced = "V E R D I E N S T A B R E C H N U N G\nMuster GmbH\nZeitraum 10/2026"
    assert classify.classify(spaced)[0] == "payslip"
    capitals = "NETTOBEZUEGE  2.100,00\nUEBERWEISUNGSBETRAG  2.000,00\nSTEUERKLASSE 1\nGESAMTBRUTTO 3.000,00"
    assert classify.classify(capitals)[0] == "payslip"
    assert for_classifying("Verdienst-\nabrechnung") == "Verdienstabrechnung"


def _spaced(text: str, x: float, pitch: float = 9, word_gap: float = 20) -> list[Word]:
    words = []
    for part in text.split(" "):
        for letter in part:
            words.append(Word(letter, x, 0, x + 6, 10, 1))
            x += pitch
        x += word_gap
    return words


def test_a_layout_reads_spaced_letters_as_words_and_keeps_single_letters_apart():
    layout = Layout(_spaced("VERDIENSTABRECHNUNG 2026", 10) + [Word("Netto", 500, 0, 530, 10, 1)])
    assert layout.lines[0].text.split() == ["VERDIENSTABRECHNUNG", "2026", "Netto"]
    apart = [Word(letter, 10 + 60 * i, 0, 16 + 60 * i, 10, 1) for i, letter in enumerate("ABCD")]
    assert [w.text for w in Layout(apart).lines[0].words] == list("ABCD")


@pytest.mark.parametrize("printed, day", [
    ("01.11.2026", "2026-11-01"), ("1. November 2026", "2026-11-01"), ("Nov 1, 2026", "2026-11-01"),
    ("2026-11-01", "2026-11-01"), ("01/11/2026", "2026-11-01"), ("01-NOV-2026", "2026-11-01"),
])
def test_dates_in_every_style(printed, day):
    assert p.iso_date(printed) == day
