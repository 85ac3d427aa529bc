"""The layout reader on small PDFs drawn in the test: a value is found right of its label, below
it, in a table column, inside a two-column header block and across a line break."""
import io

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from leadflow.extractor.fields import parse as p
from leadflow.extractor.layout import Layout, Word, group_lines, words_from_tsv
from leadflow.extractor.reading import read_document

HEIGHT = A4[1]


def pdf(*items: tuple[float, float, str], font: str = "Helvetica", size: int = 10) -> bytes:
    """A one-page PDF with each text drawn at (x, y from the top) in points."""
    buffer = io.BytesIO()
    sheet = canvas.Canvas(buffer, pagesize=A4)
    sheet.setFont(font, size)
    for x, y, text in items:
        sheet.drawString(x, HEIGHT - y, text)
    sheet.save()
    return buffer.getvalue()


def layout_of(*items, **kwargs) -> Layout:
    return read_document(pdf(*items, **kwargs)).layout


def name(raw: str) -> str | None:
    return raw.strip() if raw.strip() and not any(c.isdigit() for c in raw) else None


def is_label(raw: str) -> bool:
    return raw.strip().rstrip(":").lower() in {"arbeitgeber", "arbeitnehmer", "brutto", "netto", "auszahlung"}


def test_a_value_right_of_its_label_across_a_column_gap_is_found():
    layout = layout_of((60, 100, "Lohnabrechnung für unsere Mitarbeiter"),
                       (60, 140, "Nettoverdienst"), (300, 140, "2.345,67 EUR"))
    found = layout.first(r"nettoverdienst", p.amount)
    assert (found.value, found.relation) == ("2345.67", "right-column")


def test_a_value_in_the_same_phrase_as_its_label_is_found():
    layout = layout_of((60, 100, "Abrechnungszeitraum: 01.10.2026 - 31.10.2026"), (60, 130, "Seite 1 von 1"))
    found = layout.first(r"abrechnungszeitraum", p.iso_date)
    assert (found.value, found.relation) == ("2026-10-01", "right")


def test_a_value_below_its_label_is_found_and_not_the_text_beside_it():
    layout = layout_of((60, 100, "Steuernummer"), (300, 100, "Finanzamt"),
                       (60, 114, "123/456/78901"), (300, 114, "Köln-Süd"))
    found = layout.first(r"steuernummer", lambda raw: raw if "/" in raw else None)
    assert (found.value, found.relation) == ("123/456/78901", "below")


def test_a_value_in_a_table_column_under_its_header_is_found():
    layout = layout_of((60, 100, "Bezeichnung"), (260, 100, "Brutto"), (360, 100, "Netto"), (460, 100, "Auszahlung"),
                       (60, 114, "Gehalt"), (260, 114, "4.500,00"), (360, 114, "2.980,10"), (460, 114, "2.950,10"),
                       (60, 128, "Summe"))
    assert layout.first(r"\bnetto\b", p.amount, is_label=is_label).value == "2980.10"
    assert layout.first(r"\bbrutto\b", p.amount, is_label=is_label).value == "4500.00"
    assert layout.first(r"auszahlung", p.amount, is_label=is_label).value == "2950.10"


def test_a_value_far_down_a_table_column_is_found_under_its_header():
    rows = [(60, 100 + 14 * i, f"Position {i}") for i in range(1, 6)]
    layout = layout_of((60, 100, "Buchungstext"), (400, 100, "Gesamtbrutto"), *rows, (400, 184, "5.120,00"))
    found = layout.first(r"gesamtbrutto", p.amount)
    assert (found.value, found.relation) == ("5120.00", "under-header")


def test_a_two_column_header_block_gives_each_label_its_own_column():
    layout = layout_of((60, 100, "Arbeitgeber"), (320, 100, "Arbeitnehmer"),
                       (60, 114, "Nordlicht Logistik GmbH"), (320, 114, "Priya Sharma"),
                       (60, 128, "Hafenstraße 4"), (320, 128, "Lindenweg 9"))
    employer = layout.first(r"arbeitgeber", name, is_label=is_label)
    employee = layout.first(r"arbeitnehmer", name, is_label=is_label)
    assert (employer.value, employer.relation) == ("Nordlicht Logistik GmbH", "below")
    assert (employee.value, employee.relation) == ("Priya Sharma", "below")


def test_a_value_carried_to_the_next_line_after_its_label_is_found():
    layout = layout_of((60, 100, "Wir bestätigen hiermit für Name, Vorname:"), (60, 114, "Mustermann, Erika"))
    found = layout.first(r"name, vorname:", lambda raw: raw if "," in raw else None)
    assert found.value == "Mustermann, Erika"
    assert found.relation in ("below", "next-line")


def test_a_label_without_any_value_finds_nothing():
    layout = layout_of((60, 100, "Auszahlungsbetrag"), (60, 300, "Mit freundlichen Grüßen"))
    assert layout.first(r"auszahlungsbetrag", p.amount) is None


def test_words_on_one_baseline_form_one_line_split_at_column_gaps():
    lines = group_lines([Word("Netto", 10, 100, 40, 110, 1), Word("Gehalt", 44, 101, 80, 111, 1),
                         Word("2.000,00", 300, 99, 350, 109, 1), Word("Brutto", 10, 130, 40, 140, 1)])
    assert [line.text for line in lines] == ["Netto Gehalt  2.000,00", "Brutto"]


def test_tesseract_tsv_rows_become_words_with_boxes_and_confidence():
    tsv = ("level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
           "4\t1\t1\t1\t1\t0\t10\t20\t200\t15\t-1\t\n"
           "5\t1\t1\t1\t1\t1\t10\t20\t60\t15\t96.5\tNetto\n"
           "5\t1\t1\t1\t1\t2\t150\t21\t60\t15\t91\t1.234,56\n")
    words = words_from_tsv(tsv, 2)
    assert words == [Word("Netto", 10, 20, 70, 35, 2, 96.5), Word("1.234,56", 150, 21, 210, 36, 2, 91.0)]


def test_a_value_after_a_dot_leader_is_found():
    layout = layout_of((60, 100, "Summe Bruttoentgelt ...............3.385,72"))
    assert layout.first(r"summe bruttoentgelt", p.amount).value == "3385.72"


def test_a_tilted_scan_keeps_each_row_on_one_line():
    # A one-degree tilt lifts the right end of a row by more than half a line height.
    header = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
    rows = []
    for line, (y, words) in enumerate([(100, ["Gesamt-Brutto", "Gehalt", "Zulage", "5.397,47"]),
                                        (140, ["Netto-Verdienst", "laut", "Abrechnung", "3.394,72"])], start=1):
        for index, (x, text) in enumerate(zip((100, 400, 700, 1100), words), start=1):
            top = y - int(0.0175 * x)
            rows.append(f"5\t1\t{line}\t1\t1\t{index}\t{x}\t{top}\t150\t20\t95\t{text}")
    lines = group_lines(words_from_tsv(header + "\n".join(rows) + "\n", 1))
    assert [line.text.split("  ")[-1] for line in lines] == ["5.397,47", "3.394,72"]
    assert [line.words[0].text for line in lines] == ["Gesamt-Brutto", "Netto-Verdienst"]
