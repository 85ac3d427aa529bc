"""Rules for a passport, ID card or residence permit, read from its machine-readable zone (MRZ).

The MRZ must have been read with every ICAO 9303 check digit matching (otherwise nothing read
from it can be trusted, so nothing else is checked); the document must not be expired: it is
valid up to and including its expiry date and expired from the day after; and its holder must
be the client: the profile's name matches the MRZ name (see names.py). A client with no
name in the profile is not failed for it.
"""
from dataclasses import dataclass
from datetime import date

from leadflow.domain.verification import Applicant, Note
from leadflow.domain.verification.common import day_words, incomplete, iso_date
from leadflow.domain.verification.names import names_match


@dataclass(frozen=True)
class Words:
    en: str  # "passport or ID card"
    this_de: str  # "diesem Ausweisdokument"
    complete_de: str  # "das vollständige Ausweisdokument"
    own_de: str  # "Ihren eigenen Reisepass oder Personalausweis"
    valid_de: str  # "einen gültigen Reisepass oder Personalausweis"


ID_DOCUMENT = Words("passport or ID card", "diesem Ausweisdokument", "das vollständige Ausweisdokument",
                    "Ihren eigenen Reisepass oder Personalausweis", "einen gültigen Reisepass oder Personalausweis")
RESIDENCE_PERMIT = Words("residence permit", "diesem Aufenthaltstitel", "den vollständigen Aufenthaltstitel",
                         "Ihren eigenen Aufenthaltstitel", "einen gültigen Aufenthaltstitel")

ESSENTIAL = (  # field, English label, German label
    ("surname", "the surname", "der Nachname"),
    ("expiry_date", "the expiry date", "das Ablaufdatum"),
)


def check_id_document(fields: dict, applicant: Applicant, today: date) -> list[Note]:
    return check(fields, applicant, today, ID_DOCUMENT)


def check_residence_permit(fields: dict, applicant: Applicant, today: date) -> list[Note]:
    return check(fields, applicant, today, RESIDENCE_PERMIT)


def check(fields: dict, applicant: Applicant, today: date, words: Words = ID_DOCUMENT) -> list[Note]:
    if fields.get("mrz_valid") is None:
        return [Note(
            "id_mrz_unreadable",
            f"We could not read the machine-readable zone of this {words.en} (the lines of letters and <<< "
            "at the bottom of the photo page or on the back of a card). Please upload a sharp, straight photo "
            "or scan of the whole page, or of both sides of a card, without glare.",
            f"Wir konnten die maschinenlesbare Zone von {words.this_de} nicht lesen (die Zeilen aus Buchstaben "
            "und <<< unten auf der Lichtbildseite oder auf der Rückseite einer Karte). Bitte laden Sie ein scharfes, "
            "gerades Foto oder einen Scan der ganzen Seite bzw. beider Seiten der Karte hoch, ohne Spiegelungen.")]
    if fields.get("mrz_valid") is not True:
        return [Note(
            "id_mrz_invalid",
            f"The machine-readable zone of this {words.en} did not pass its check digits, so we cannot rely on "
            "what we read. Please upload a sharper photo or scan in which every character of those lines is clear.",
            f"Die maschinenlesbare Zone von {words.this_de} hat die Prüfziffernkontrolle nicht bestanden; wir können "
            "uns auf das Gelesene nicht verlassen. Bitte laden Sie ein schärferes Foto oder einen Scan hoch, auf dem "
            "jedes Zeichen dieser Zeilen klar zu erkennen ist.")]
    notes = []
    expiry = iso_date(fields.get("expiry_date"))
    missing = [(en, de) for name, en, de in ESSENTIAL
               if (expiry if name == "expiry_date" else (fields.get(name) or None)) is None]
    if missing:
        notes.append(incomplete("id_incomplete", missing, words.en, words.this_de, words.complete_de))
    if expiry is not None and today > expiry:
        expiry_en, expiry_de = day_words(expiry)
        notes.append(Note(
            "id_expired",
            f"This {words.en} expired on {expiry_en}. Please upload a valid one.",
            f"Dieses Dokument ist am {expiry_de} abgelaufen. Bitte laden Sie {words.valid_de} hoch."))
    if applicant.name and applicant.name.strip() and fields.get("surname") and not names_match(
            applicant.name, fields.get("surname"), fields.get("given_names"), fields.get("mrz_format")):
        shown = " ".join(part for part in (fields.get("given_names"), fields.get("surname")) if part)
        notes.append(Note(
            "id_name_mismatch",
            f"The name we read on this {words.en} ({shown}) does not match the name in your profile "
            f"({applicant.name.strip()}). If we misread it, please upload a sharper photo of the document; if your "
            "profile name is wrong, correct it; if this is someone else's document, please upload your own.",
            f"Der Name, den wir auf {words.this_de} gelesen haben ({shown}), stimmt nicht mit dem Namen in Ihrem "
            f"Profil ({applicant.name.strip()}) überein. Falls wir ihn falsch gelesen haben, laden Sie bitte ein "
            "schärferes Foto des Dokuments hoch; ist der Name in Ihrem Profil falsch, korrigieren Sie ihn bitte; "
            f"gehört das Dokument jemand anderem, laden Sie bitte {words.own_de} hoch."))
    return notes
