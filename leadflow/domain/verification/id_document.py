"""Rules for a passport, ID card or residence permit, read from its machine-readable zone (MRZ).

Nothing read from an MRZ whose ICAO 9303 check digits did not all match can be trusted: such
a zone, like one not found at all, is a reading failure (a photo's glare, a skewed scan), so
its fields go to a person rather than the client being told the document is wrong. From a
zone read with every check digit matching: the document must not be expired (valid up to and
including its expiry date, expired from the day after), and its holder must be the client:
the profile's name, or the name of an applicant of the client's case, matches the MRZ name (see
names.py). A client with no name in the profile and no case is not failed for it.
"""
from dataclasses import dataclass
from datetime import date

from leadflow.domain.verification.notes import Applicant, Note
from leadflow.domain.verification.common import day_words, iso_date, text
from leadflow.domain.verification.names import names_match
from leadflow.domain.verification.spec import Check, Field, TypeRules


@dataclass(frozen=True)
class Words:
    en: str  # "passport or ID card"
    on_de: str  # "auf diesem Ausweisdokument"
    this_de: str  # "diesem Ausweisdokument"
    own_de: str  # "Ihren eigenen Reisepass oder Personalausweis"
    valid_de: str  # "einen gültigen Reisepass oder Personalausweis"


ID_DOCUMENT = Words("passport or ID card", "auf diesem Ausweisdokument", "diesem Ausweisdokument",
                    "Ihren eigenen Reisepass oder Personalausweis", "einen gültigen Reisepass oder Personalausweis")
RESIDENCE_PERMIT = Words("residence permit", "auf diesem Aufenthaltstitel", "diesem Aufenthaltstitel",
                         "Ihren eigenen Aufenthaltstitel", "einen gültigen Aufenthaltstitel")

FROM_THE_ZONE = frozenset({"surname", "given_names", "expiry_date"})


def _zone_not_trusted(fields: dict) -> frozenset:
    return frozenset() if fields.get("mrz_valid") is True else FROM_THE_ZONE


def _has_profile_name(applicant: Applicant) -> bool:
    return bool(_holders(applicant))


def _holders(applicant: Applicant) -> list[str]:
    """Whose ID is welcome: the client's profile name and every applicant of the client's case."""
    names = [applicant.name] + [person.name for person in applicant.case]
    return [name.strip() for name in names if name and name.strip()]


def _rules(words: Words) -> TypeRules:
    def expiry(read: dict, applicant: Applicant, today: date) -> list[Note]:
        if today <= read["expiry_date"]:
            return []
        expiry_en, expiry_de = day_words(read["expiry_date"])
        return [Note(
            "id_expired",
            f"This {words.en} expired on {expiry_en}. Please upload a valid one.",
            f"Dieses Dokument ist am {expiry_de} abgelaufen. Bitte laden Sie {words.valid_de} hoch.")]

    def holder(read: dict, applicant: Applicant, today: date) -> list[Note]:
        # Both names read confidently: a different name is what the document shows.
        if any(names_match(name, read["surname"], read["given_names"], read.get("mrz_format"))
               for name in _holders(applicant)):
            return []
        shown = f"{read['given_names']} {read['surname']}"
        profile = " / ".join(dict.fromkeys(_holders(applicant)))
        return [Note(
            "id_name_mismatch",
            f"The name on this {words.en} ({shown}) does not match the name in your profile ({profile}). "
            "If your profile name is wrong, correct it; if this is someone else's document, please upload your own.",
            f"Der Name auf {words.this_de} ({shown}) stimmt nicht mit dem Namen in Ihrem Profil ({profile}) "
            "überein. Ist der Name in Ihrem Profil falsch, korrigieren Sie ihn bitte; gehört das Dokument "
            f"jemand anderem, laden Sie bitte {words.own_de} hoch.")]

    return TypeRules(
        on_en=f"on this {words.en}", on_de=words.on_de,
        fields=(
            Field("surname", "the surname", "den Nachnamen", "m", text, "text"),
            Field("given_names", "the given names", "die Vornamen", "pl", text, "text"),
            Field("expiry_date", "the expiry date", "das Ablaufdatum", "n", iso_date, "date"),
            Field("mrz_format", "the zone's format", "das Format der Zone", "n", text, "text"),
        ),
        essential=("surname", "expiry_date"),
        checks=(Check(("expiry_date",), expiry), Check(("surname", "given_names"), holder, _has_profile_name)),
        distrusted=_zone_not_trusted,
    )


ID_DOCUMENT_RULES = _rules(ID_DOCUMENT)
RESIDENCE_PERMIT_RULES = _rules(RESIDENCE_PERMIT)
