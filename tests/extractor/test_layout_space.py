"""The layout space (bench/layout_space): reproducible from its seed, broad across seeds, its truth consistent."""
import io
from collections import Counter
from datetime import date
from decimal import Decimal

import pdfplumber
import pytest

from bench.layout_space import AS_OF, REJECTED, TYPES, VERIFIED, draw, plan
from bench.layout_space._style import spaced

SEEDS = range(40)


def _text(pdf: bytes) -> str:
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        return "\n".join(page.extract_text() or "" for page in document.pages)


def _iban_valid(iban: str) -> bool:
    moved = iban[4:] + iban[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1


@pytest.mark.parametrize("document_type", TYPES)
def test_the_same_seed_draws_the_same_document(document_type):
    first, again = draw(document_type, 1234, "text_pdf"), draw(document_type, 1234, "text_pdf")
    assert first.data == again.data
    assert first.fields == again.fields and first.person == again.person and first.expected == again.expected


def test_the_same_seed_draws_the_same_scan():
    assert draw("payslip", 77, "scan_pdf").data == draw("payslip", 77, "scan_pdf").data


@pytest.mark.parametrize("document_type", ["payslip", "bank_statement", "tax_assessment", "invoice"])
def test_different_seeds_draw_different_layouts(document_type):
    styles = [tuple(sorted((k, str(v)) for k, v in draw(document_type, seed).traits["style"].items()))
              for seed in range(12)]
    assert len(set(styles)) == 12
    texts = {_text(draw(document_type, seed).data).split("\n")[0] for seed in range(12)}
    assert len(texts) > 1


def test_a_run_of_the_plan_covers_every_type_and_rendering_and_replays():
    jobs = plan(seed=5, documents=90)
    assert {kind for kind, _, _ in jobs} == set(TYPES)
    assert {rendering for _, _, rendering in jobs} == {"text_pdf", "scan_pdf", "photo"}
    assert plan(seed=5, documents=90) == jobs
    assert plan(seed=6, documents=90) != jobs
    assert {rendering for _, _, rendering in plan(seed=5, documents=30, renderings=("text_pdf",))} == {"text_pdf"}


def test_payslip_sums_add_up_and_the_iban_is_valid():
    for seed in SEEDS:
        doc = draw("payslip", seed)
        gross, net, payout = (Decimal(doc.fields[name]) for name in ("gross", "net", "payout"))
        assert gross - sum(Decimal(v) for v in doc.traits["deductions"]) == net
        assert net - sum((Decimal(v) for v in doc.traits["net_deductions"]), Decimal(0)) == payout
        assert "iban" not in doc.fields or _iban_valid(doc.fields["iban"])


def test_statement_balances_add_up_and_the_iban_is_valid():
    for seed in SEEDS:
        doc = draw("bank_statement", seed)
        opening, closing = Decimal(doc.fields["opening_balance"]), Decimal(doc.fields["closing_balance"])
        assert opening + sum(Decimal(v) for v in doc.traits["bookings"]) == closing
        assert _iban_valid(doc.fields["iban"])
        assert doc.fields["period_start"] < doc.fields["period_end"]


def test_genuine_documents_are_current_on_the_evaluation_clock_and_the_others_are_marked():
    """A genuine payslip's month ends within three months of AS_OF, a statement ends in the accepted window;
    the share drawn too old says so, and is expected REJECTED."""
    expected = Counter()
    for seed in range(80):
        for kind in ("payslip", "bank_statement"):
            doc = draw(kind, seed)
            expected[doc.expected] += 1
            end = (date.fromisoformat(doc.fields["period"] + "-01") if kind == "payslip"
                   else date.fromisoformat(doc.fields["period_end"]))
            recent = date(2026, 8, 1) <= end <= AS_OF
            assert recent == (doc.expected == VERIFIED), (kind, seed, end)
            assert (doc.reason == "too old") == (doc.expected == REJECTED)
    assert expected[VERIFIED] > expected[REJECTED] > 0


def test_the_space_holds_the_failure_classes_issue_39_names():
    """Capitals with AE/OE/UE/SS, spaced-letter titles, deductions side by side, the employee only in the
    address block, statement numbers like "5/2026", a period line that wraps, the parties in an opening clause,
    a later page of a tax assessment photographed alone."""
    payslips = [draw("payslip", seed) for seed in range(60)]
    styles = [doc.traits["style"] for doc in payslips]
    assert any(s["case"] == "upper" and s["ascii_umlauts"] for s in styles)
    assert any(s["spaced_title"] for s in styles)
    assert any(s["two_columns"] for s in styles)
    assert any(doc.traits["address_only"] for doc in payslips)
    assert any(s["placement"] == "wrap" for s in styles)
    assert any(doc.traits["period_in_title"] for doc in payslips)
    spaced_title = next(doc for doc in payslips if doc.traits["style"]["spaced_title"])
    assert "  " in _text(spaced_title.data) or any(len(w) == 1 for w in _text(spaced_title.data).split()[:40])
    statements = [draw("bank_statement", seed) for seed in range(40)]
    assert any(doc.traits["period_form"] == "wrapped" for doc in statements)
    assert any("/2026" in doc.traits["number"] for doc in statements)
    contracts = [draw("employment_contract", seed) for seed in range(12)]
    clause = next(doc for doc in contracts if doc.traits["parties"] == "clause")
    assert "Zwischen" in _text(clause.data) or "between" in _text(clause.data)
    photos = [draw("tax_assessment", seed, "photo") for seed in range(12)]
    assert any(doc.traits["capture"]["page"] == 2 for doc in photos)


def test_umlauts_written_out_in_capitals():
    from bench.layout_space._style import draw as draw_style
    import random
    style = draw_style(random.Random(1))
    upper = type(style)(**{**style.__dict__, "case": "upper", "ascii_umlauts": True})
    assert upper.word("Überweisungsbetrag") == "UEBERWEISUNGSBETRAG"
    assert upper.word("Straße") == "STRASSE"
    assert spaced("VERDIENST ABRECHNUNG") == "V E R D I E N S T   A B R E C H N U N G"


def test_a_long_compound_label_breaks_with_a_hyphen():
    from bench.layout_space._page import hyphenate
    assert hyphenate("Auszahlungsbetrag") == ("Auszahlungs-", "betrag")
    assert hyphenate("UEBERWEISUNGSBETRAG") == ("UEBERWEISUNGS-", "BETRAG")
    assert hyphenate("Netto") is None


def test_the_truth_names_only_fields_the_extractor_declares():
    from leadflow.extractor.fields import REGISTRY
    for kind in TYPES:
        doc = draw(kind, 3)
        assert set(doc.fields) <= set(REGISTRY[kind].schemas), kind
