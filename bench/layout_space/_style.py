"""How one issuer prints: every choice a layout makes about words, numbers, dates and type, drawn from a seed.

A Style is drawn once per document; the type modules ask it how to write a label (which variant
of the lexicon, in which case, umlauts or not), an amount, a date or a month. The choices are the
axes of the space: nothing here knows a document type.
"""
import random
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from bench.synthetic import _fake as fake

FAMILIES = ("helvetica", "times", "courier", "dejavu", "dejavu-serif", "dejavu-condensed")
CASES = ("title", "title", "title", "upper", "upper")
AMOUNT_STYLES = ("de", "de", "de", "en", "plain", "plain_dot", "eur_before", "eur_after", "euro_sign")
DATE_STYLES = ("dmy", "dmy", "short", "slash", "iso", "long_de", "long_en_us", "long_en")
MONTH_STYLES = ("de", "en", "slash", "dot", "upper", "range", "range_words")
PLACEMENTS = ("right", "right", "leader", "colon", "below", "box", "wrap")
UMLAUTS = {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss"}


@dataclass(frozen=True)
class Style:
    language: str          # "de" | "en" | "mixed": which lexicon variants a label is drawn from
    family: str
    size: float            # body text size, pt
    case: str              # how labels are cased
    spaced_title: bool     # "V E R D I E N S T A B R E C H N U N G"
    ascii_umlauts: bool    # "Abzuege", "BRUTTOBEZUEGE"
    amounts: str
    negatives: str         # how deductions print: "minus" | "trailing" | "plain"
    asterisks: bool        # "****2.345,67" on the amount paid out
    dates: str
    months: str
    placement: str         # where a value stands relative to its label
    two_columns: bool      # facts in two blocks side by side, deductions in two columns
    rules: bool            # tables drawn with a line under every row
    salutation: bool       # "Herrn" / "Frau" above the address
    logo: bool
    footer: bool
    page_numbers: bool
    watermark: str         # "" or the word printed big and grey across the page
    margin: float          # left margin, mm

    # --- words ------------------------------------------------------------------------------

    def label(self, rng: random.Random, variants: dict, **values) -> str:
        """One variant of a label from the lexicon entry {"de": [...], "en": [...]}, cased as this issuer does
        ("{y}" in a variant is filled from `values` first)."""
        language = self.language if self.language != "mixed" else rng.choice(("de", "en"))
        choices = variants.get(language) or variants["de"]
        return self.word(rng.choice(choices).format(**values))

    def word(self, text: str) -> str:
        """Cased as this issuer cases labels; umlauts written out where it has no umlauts ("SS" for ß in capitals)."""
        if self.case == "upper":
            text = text.upper()  # Python writes ß as SS in capitals, as German typesetting does
        if self.ascii_umlauts:
            text = "".join(UMLAUTS.get(c, c) for c in text)
            if self.case == "upper":
                text = text.upper()
        return text

    def title(self, text: str) -> str:
        """A document's title: in spaced capitals for some issuers."""
        return spaced(self.word(text).upper()) if self.spaced_title else self.word(text)

    # --- numbers and dates ------------------------------------------------------------------

    def amount(self, value, negative: bool = False, paid_out: bool = False) -> str:
        value = fake.money(value)
        shown = -value if negative else value
        if negative and self.negatives == "plain":
            shown = value
        style = self.amounts
        if style == "plain_dot":
            text = f"{abs(shown):.2f}"
        elif style in ("eur_before", "eur_after", "euro_sign"):
            text = fake.amount(abs(shown), "de")
        else:
            text = fake.amount(abs(shown), style)
        if paid_out and self.asterisks:
            text = "*" * max(2, 10 - len(text)) + text
        if style == "eur_before":
            text = f"EUR {text}"
        elif style == "eur_after":
            text = f"{text} EUR"
        elif style == "euro_sign":
            text = f"{text} €"
        if shown < 0:
            text = f"{text}-" if self.negatives == "trailing" else f"-{text}"
        return text

    def day(self, value: date) -> str:
        style = self.dates
        if style == "short":
            return f"{value.day}.{value.month}.{value.year % 100:02d}"
        if style == "slash":
            return value.strftime("%d/%m/%Y")
        if style == "long_en_us":
            return f"{fake.MONTHS_EN[value.month - 1]} {value.day}, {value.year}"
        if style == "long_en":
            return fake.day(value, "long_en")
        return fake.day(value, style)

    def month(self, first: date, rng: random.Random) -> str:
        """A pay month as this issuer writes it (a range of days counts too)."""
        style = self.months
        if style == "range":
            return f"{self.day(first)} - {self.day(fake.month_last(first))}"
        if style == "range_words":
            words = ("vom", "bis") if self.language != "en" else ("from", "to")
            return f"{words[0]} {self.day(first)} {words[1]} {self.day(fake.month_last(first))}"
        text = fake.month(first, style)
        return self.word(text) if style in ("de", "en") else text


def draw(rng: random.Random, languages=("de", "de", "de", "en", "mixed")) -> Style:
    """A whole issuer's style from the seed's generator."""
    family = rng.choice(FAMILIES)
    case = rng.choice(CASES)
    language = rng.choice(languages)
    # A German issuer does not group thousands with commas; an English one may write either way.
    amounts = rng.choice([a for a in AMOUNT_STYLES if not (language == "de" and a == "en")])
    # German issuers do not write "December 6, 2026", English ones not "6. Dezember 2026".
    foreign = {"de": ("long_en", "long_en_us", "en"), "en": ("long_de", "de", "upper")}.get(language, ())
    dates = rng.choice([d for d in DATE_STYLES if d not in foreign])
    months = rng.choice([m for m in MONTH_STYLES if m not in foreign])
    return Style(
        language=language, family=family,
        size=rng.choice((8.0, 8.5, 9.0, 9.5, 10.0, 10.5)) - (0.5 if family == "courier" else 0.0),
        case=case, spaced_title=rng.random() < 0.2,
        ascii_umlauts=rng.random() < (0.5 if case == "upper" else 0.15),
        amounts=amounts, negatives=rng.choice(("minus", "trailing", "plain")),
        asterisks=rng.random() < 0.15,
        dates=dates, months=months,
        placement=rng.choice(PLACEMENTS), two_columns=rng.random() < 0.35, rules=rng.random() < 0.4,
        salutation=rng.random() < 0.6, logo=rng.random() < 0.5, footer=rng.random() < 0.6,
        page_numbers=rng.random() < 0.5,
        watermark=rng.choice(("",) * 27 + ("KOPIE", "DUPLIKAT", "COPY")),
        margin=rng.choice((15.0, 18.0, 20.0, 22.0, 25.0)),
    )


def spaced(text: str) -> str:
    """ "VERDIENST" -> "V E R D I E N S T": letters apart, words three spaces apart."""
    return "   ".join(" ".join(word) for word in text.split())


def cents(value) -> Decimal:
    return fake.money(value)
