"""What a type's rules declare, and the one place that decides whether they may judge.

A type declares the fields it needs read and its checks, each naming the fields it judges.
The dispatcher here reads every declared field with its confidence; a check whose fields
were all read confidently may reject, and any field that is needed but was not read
reliably sends the document to a person instead. A rejection rests only on confirmed values
(the content's `confirmed`: read twice by independent means or cross-checked, or typed by a
person): a check that would reject on a value read once sends the document to a person with
the doubt named. A check that `doubts` never rejects: what it finds (a genuine document can
show it, a misread can too) sends the document to a person. A reader cannot prove that a field is
absent: "we could not read it" must never become "your document lacks it".
"""
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from leadflow.domain.verification.common import day_words, month_words
from leadflow.domain.verification.notes import Applicant, Note

READ_THRESHOLD = 0.5
"""The extractor's field_confidence under this means the value was not read reliably."""

PERSON = 1.0
"""What a value a person typed in counts as: read, whatever the extractor thought."""


@dataclass(frozen=True)
class Field:
    """One field a type needs read, named as a client would name it."""
    name: str
    en: str  # "the pay month"
    de: str  # "den Abrechnungsmonat": the accusative, as in "Wir konnten ... nicht lesen"
    gender: str  # "m", "f", "n" or "pl": which German pronoun refers back to it
    read: Callable  # the stored value -> its parsed value, or None when absent or malformed
    kind: str  # how a person types it in: month, amount, date, year, iban or text


@dataclass(frozen=True)
class Check:
    """A rule that may reject, given the fields it judges (parsed, by name)."""
    judges: tuple[str, ...]
    run: Callable[[dict, Applicant, date], list[Note]]
    applies: Callable[[Applicant], bool] = lambda applicant: True
    doubts: bool = False  # its notes ask a person to look; they never reject
    unconfirmed: Callable[[dict, dict, Applicant, date], list[Note]] | None = None
    """What it says when it would reject on a value that is not confirmed, given the read values and
    the raw fields: doubts for a person, or [] when the rest of the document settles it. Without it,
    one note names the values and asks a person."""


@dataclass(frozen=True)
class TypeRules:
    on_en: str  # "on this payslip"
    on_de: str  # "auf dieser Gehaltsabrechnung"
    fields: tuple[Field, ...]
    essential: tuple[str, ...]  # needed whatever the checks say: what a lender reads from it
    checks: tuple[Check, ...] = ()
    distrusted: Callable[[dict], frozenset] = lambda fields: frozenset()
    """Fields the document itself says were not read reliably (an MRZ whose check digits failed)."""

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields if f.name == name), None)


@dataclass(frozen=True)
class Judgement:
    rejections: tuple[Note, ...]
    unreadable: tuple[Field, ...]
    doubts: tuple[Note, ...] = ()


def judge(rules: TypeRules, content: dict, applicant: Applicant, today: date) -> Judgement:
    """Run every check whose fields were read confidently; list the needed fields that were not.

    Confidence comes from the extractor's `field_confidence`; content without it (another
    service, an older version) counts a present, well-formed value as read. A value a person
    typed in (`read_by_person`) counts as read and as confirmed. A check that would reject
    rejects only when every value it judges is in the content's `confirmed`; content without
    it confirms nothing, so its rejections become doubts.
    """
    raw = content.get("fields") if isinstance(content.get("fields"), dict) else {}
    confidence = content.get("field_confidence") if isinstance(content.get("field_confidence"), dict) else {}
    by_person = set(content.get("read_by_person") or ())
    distrusted = set(rules.distrusted(raw)) - by_person
    read = {}
    for field in rules.fields:
        value = field.read(raw.get(field.name))
        if value is not None and _confidence(field.name, confidence, by_person, distrusted) >= READ_THRESHOLD:
            read[field.name] = value
    applicable = [check for check in rules.checks if check.applies(applicant)]
    needed = set(rules.essential).union(*(check.judges for check in applicable))
    confirmed = _confirmed(content) | by_person
    rejections, doubts = [], []
    for check in applicable:
        notes = check.run(read, applicant, today) if all(name in read for name in check.judges) else []
        unsure = tuple(name for name in check.judges if name not in confirmed)
        if not notes or check.doubts:
            doubts += notes
        elif not unsure:
            rejections += notes
        elif check.unconfirmed is not None:
            doubts += check.unconfirmed(read, raw, applicant, today)
        else:
            doubts.append(unconfirmed_note(rules, tuple(rules.field(name) for name in unsure), read))
    unreadable = tuple(f for f in rules.fields if f.name in needed and f.name not in read)
    return Judgement(tuple(rejections), unreadable, tuple(doubts))


def confidently_read(content: dict) -> dict:
    """Every field read with confidence (field_confidence >= READ_THRESHOLD) or set by a person;
    content without confidences (another service, an older version) counts a present value as read."""
    raw = content.get("fields") if isinstance(content.get("fields"), dict) else {}
    confidence = content.get("field_confidence") if isinstance(content.get("field_confidence"), dict) else {}
    by_person = set(content.get("read_by_person") or ())
    return {name: value for name, value in raw.items()
            if value not in (None, "") and _confidence(name, confidence, by_person, set()) >= READ_THRESHOLD}


def unreadable_note(rules: TypeRules, unreadable: tuple[Field, ...]) -> Note:
    """ "We could not read the pay month on this payslip; a specialist will check it." """
    one = len(unreadable) == 1
    it_en = "it" if one and unreadable[0].gender != "pl" else "them"
    it_de = PRONOUNS[unreadable[0].gender] if one else "sie"
    return Note(
        "fields_unreadable",
        f"We could not read {_listed([f.en for f in unreadable], 'and')} {rules.on_en}; "
        f"a specialist will check {it_en}.",
        f"Wir konnten {_listed([f.de for f in unreadable], 'und')} {rules.on_de} nicht lesen; "
        f"eine Fachkraft prüft {it_de}.",
        fields=tuple(f.name for f in unreadable))


def unconfirmed_note(rules: TypeRules, unsure: tuple[Field, ...], read: dict) -> Note:
    """ "On this payslip we read the pay month as April 2026, but could not confirm it; a specialist
    will check it." The value as read, so the client sees what we doubt."""
    one = len(unsure) == 1
    it_en = "it" if one and unsure[0].gender != "pl" else "them"
    it_de = PRONOUNS[unsure[0].gender] if one else "sie"
    shown = [(f, *in_words(f.kind, read[f.name])) for f in unsure]
    values_en = _listed([f"{f.en} as {en}" for f, en, _ in shown], "and")
    values_de = _listed([f"{f.de} als {de}" for f, _, de in shown], "und")
    return Note(
        "value_unconfirmed",
        f"{rules.on_en[0].upper()}{rules.on_en[1:]} we read {values_en}, but could not confirm {it_en}; "
        f"a specialist will check {it_en}.",
        f"{rules.on_de[0].upper()}{rules.on_de[1:]} haben wir {values_de} gelesen, konnten {it_de} aber nicht "
        f"bestätigen; eine Fachkraft prüft {it_de}.",
        fields=tuple(f.name for f in unsure))


def in_words(kind: str, value) -> tuple[str, str]:
    """A parsed value as each language writes it in a sentence."""
    if kind == "date":
        return day_words(value)
    if kind == "month":
        return month_words(value)
    if kind == "amount":
        en = f"{value:,.2f}"
        return f"{en} EUR", en.translate(str.maketrans(",.", ".,")) + " EUR"
    return str(value), str(value)


PRONOUNS = {"m": "ihn", "f": "sie", "n": "es", "pl": "sie"}


def _confirmed(content: dict) -> set:
    confirmed = content.get("confirmed")
    if isinstance(confirmed, dict):
        return {name for name, means in confirmed.items() if means}
    if isinstance(confirmed, (list, tuple)):
        return {name for name in confirmed if isinstance(name, str)}
    return set()


def _confidence(name: str, confidence: dict, by_person: set, distrusted: set) -> float:
    if name in by_person:
        return PERSON
    if name in distrusted:
        return 0.0
    if name not in confidence:
        return PERSON  # no confidence reported: a present value counts as read
    value = confidence[name]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0.0
    return float(value)


def _listed(words: list[str], conjunction: str) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {conjunction} {words[-1]}"
