"""Verification: from an extraction result to a verdict with notes a client understands.

Pure functions over the extracted content. The checks that apply to every document live
here; rules for one document type live in a module of their own, registered in RULES.
"""
from dataclasses import dataclass, field, replace
from datetime import date

from leadflow.domain import document_types
from leadflow.domain.lifecycle import RejectionCode, Status
from leadflow.domain.verification.notes import Applicant, Note

CONFIDENCE_THRESHOLD = 0.6
"""Below this, a person decides the type: a confident wrong answer costs more than asking."""

MIN_TEXT_CHARS = 40
"""Less recovered text than this means the scan cannot be read."""

DOCUMENT_TYPES = tuple(document_types.TYPES)


@dataclass(frozen=True)
class Verdict:
    status: Status
    notes: tuple[Note, ...] = ()
    rejection_code: RejectionCode | None = None
    applicants: tuple[int | None, ...] = ()
    """Whose the document is: the case's applicants it names (two: a joint account's statement)."""

    def whose_fields(self) -> dict:
        """The document's columns that record whose it is (models.Document.applicant_id, joint)."""
        return {"applicant_id": self.applicants[0] if self.applicants else None, "joint": len(self.applicants) > 1}

    def notes_as_dicts(self) -> list[dict]:
        return [n.as_dict() for n in self.notes]


@dataclass(frozen=True)
class Extraction:
    """What verification needs from one extraction result."""
    document_type: str
    confidence: float
    content: dict = field(default_factory=dict)
    pages: int = 0


def verify(extraction: Extraction, declared_kind: str | None, applicant: Applicant, today: date) -> Verdict:
    """The verdict on one extraction result."""
    text_chars = extraction.content.get("text_chars")
    if text_chars is not None and text_chars < MIN_TEXT_CHARS and extraction.document_type not in ("id_document", "residence_permit"):
        # A file with nothing on it was refused at the upload (blank_pages); one that passed and of
        # which the reader got little or nothing is the reader's weakness, not the client's fault
        # (on fresh layouts every genuine scan rejected here had been read so). A person looks at
        # the image and asks for a better copy only when they cannot read it either.
        return Verdict(Status.ACTION_REQUIRED, (Note(
            "hard_to_read",
            "We could read only a little of this document; a specialist will look at it.",
            "Wir konnten nur wenig von diesem Dokument lesen; eine Fachkraft sieht es sich an."),))
    if extraction.document_type not in DOCUMENT_TYPES or extraction.confidence < CONFIDENCE_THRESHOLD:
        return Verdict(Status.ACTION_REQUIRED, (Note(
            "type_unclear",
            "We could not tell what kind of document this is; a specialist will look at it.",
            "Wir konnten die Art dieses Dokuments nicht erkennen; eine Fachkraft prüft es."),))
    if declared_kind and declared_kind != extraction.document_type:
        return Verdict(Status.ACTION_REQUIRED, (Note(
            "kind_mismatch",
            f"You uploaded this as {_label(declared_kind, 'en')}, but it looks like {_label(extraction.document_type, 'en')}; a specialist will check it.",
            f"Sie haben dies als {_label(declared_kind, 'de')} hochgeladen, es sieht aber aus wie {_label(extraction.document_type, 'de')}; eine Fachkraft prüft es."),))
    return verify_type(extraction.document_type, extraction.content, applicant, today)


def verify_type(document_type: str, content: dict, applicant: Applicant, today: date) -> Verdict:
    """The type's own rules, once the type is known (also used after a person decides it), and
    whose the document is.

    What the document confidently shows, confirmed, may reject it (too old, expired, another
    person's name); a value read once that would reject, a field that is needed but was not
    read reliably, or a finding that a genuine document can show too (a check that doubts),
    sends it to a person.
    """
    return _whose(_by_the_rules(document_type, content, applicant, today), document_type, content, applicant)


def _by_the_rules(document_type: str, content: dict, applicant: Applicant, today: date) -> Verdict:
    rules = RULES.get(document_type)
    if rules is not None:
        judgement = judge(rules, content, applicant, today)
        if judgement.rejections:
            return Verdict(Status.REJECTED, judgement.rejections, RejectionCode.VERIFICATION_FAILED)
        if judgement.unreadable or judgement.doubts:
            unreadable = (unreadable_note(rules, judgement.unreadable),) if judgement.unreadable else ()
            return Verdict(Status.ACTION_REQUIRED, unreadable + judgement.doubts)
    return Verdict(Status.VERIFIED, (Note("ok", "Checked and accepted.", "Geprüft und akzeptiert."),))


def _whose(verdict: Verdict, document_type: str, content: dict, applicant: Applicant) -> Verdict:
    """A document of a case belongs to the applicants it names. One that names someone who is not
    on the case goes to a person (never a silent VERIFIED); a person's assignment settles it."""
    if applicant.assigned:
        return replace(verdict, applicants=tuple(applicant.assigned))
    if not applicant.case:
        return verdict
    found = _applicants.whose(document_type, confidently_read(content), tuple(applicant.case))
    if not found.strangers or verdict.status == Status.REJECTED:
        return replace(verdict, applicants=found.applicants)
    kept = tuple(n for n in verdict.notes if n.code != "ok")
    return Verdict(Status.ACTION_REQUIRED, kept + (not_on_case(found.strangers),), applicants=found.applicants)


def not_on_case(strangers) -> Note:
    """The note of a document that names someone who is not on its case: a person decides whose it is."""
    names = ", ".join(strangers)
    return Note("not_on_case",
                f"This document names someone who is not on this case ({names}); a specialist will check whose it is.",
                f"Dieses Dokument nennt jemanden, der nicht zu diesem Fall gehört ({names}); "
                "eine Fachkraft prüft, wem es gehört.")


def unreadable_fields(document_type: str | None, notes: list[dict] | None) -> list:
    """The fields a person is asked to read on a document waiting in review, as declared Fields."""
    rules = RULES.get(document_type or "")
    if rules is None:
        return []
    # A note naming fields asks a person to read them: missed (`fields_unreadable`) or read once and
    # not confirmed (`value_unconfirmed`); what a person types is read and confirmed.
    names = [name for note in notes or [] if isinstance(note, dict) and note.get("code") in ASKS_FOR_FIELDS
             for name in note.get("fields") or []]
    return [field for field in rules.fields if field.name in names]


ASKS_FOR_FIELDS = ("fields_unreadable", "value_unconfirmed", "bank_statement_period_unconfirmed")


def typed_value(document_type: str, name: str, text):
    """What a person typed for a field, in the form the extractor stores it; None when it does not parse."""
    rules = RULES.get(document_type)
    field = rules.field(name) if rules else None
    if field is None:
        return None
    return TYPED[field.kind](text)


# The kind-mismatch note's German type names: the domain's notes still carry both languages (their
# move to the catalogs is pending); the names themselves come from leadflow.domain.document_types.
_IN_SENTENCE_DE = {
    "a payslip": "Gehaltsabrechnung", "a bank statement": "Kontoauszug", "a tax assessment": "Steuerbescheid",
    "a wage tax certificate": "Lohnsteuerbescheinigung", "an employment contract": "Arbeitsvertrag",
    "a passport or ID card": "Reisepass oder Personalausweis", "a residence permit": "Aufenthaltstitel",
    "an invoice": "Rechnung", "a receipt": "Quittung", "an unknown document": "unbekanntes Dokument",
}


def _label(document_type: str, language: str) -> str:
    en = document_types.in_sentence(document_type)
    return en if language == "en" else _IN_SENTENCE_DE[en]


# Per-type rules: document type -> spec.TypeRules (fields it needs read, checks that may reject).
RULES: dict = {}

# Registered last: the rule modules need nothing of this module, but read best after it.
from leadflow.domain.verification.common import TYPED  # noqa: E402
from leadflow.domain.verification.rules import RULES as _TYPE_RULES  # noqa: E402
from leadflow.domain.verification.spec import confidently_read, judge, unreadable_note  # noqa: E402
from leadflow.domain import applicants as _applicants  # noqa: E402  (a module: it imports names.py from here)

RULES.update(_TYPE_RULES)
