"""Second round of reader generalisation: each test is one class of variation seen on layouts
drawn fresh (a label wrapped over two lines, an abbreviation of a label ...), drawn small here."""
from leadflow.extractor.fields import parse as p
from leadflow.extractor.fields.finding import Findings
from leadflow.extractor.fields.tax import TAXABLE

from tests.extractor.test_layout import layout_of


def test_a_label_wrapped_after_its_first_word_is_read_whole_with_its_value():
    layout = layout_of((60, 100, "ZU"), (60, 112, "VERSTEUERNDES EINKOMMEN"), (300, 112, "64.233,00"))
    f = Findings(["taxable_income"])
    f.look(layout, "taxable_income", TAXABLE, p.euros)
    assert f.resolve().fields["taxable_income"] == "64233.00"


def test_a_label_hyphenated_in_capitals_over_two_lines_is_read_whole():
    layout = layout_of((60, 100, "EINKOMMEN-"), (60, 112, "STEUER"), (300, 112, "13.578,00"))
    found = layout.find_wrapped(r"einkommen[\s\-]?steuer", p.euros)
    assert [hit.value for hit in found] == ["13578.00"]


def test_the_abbreviation_zve_without_dots_labels_the_taxable_income():
    layout = layout_of((60, 100, "zvE"), (60, 112, "60.327,00 €"))
    f = Findings(["taxable_income"])
    f.look(layout, "taxable_income", TAXABLE, p.euros)
    assert f.resolve().fields["taxable_income"] == "60327.00"
