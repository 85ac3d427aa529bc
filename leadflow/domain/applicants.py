"""Who applies for a case's mortgage, and whose a document is.

Pure: a case has one or two applicants (the client, and optionally a co-applicant). A document that
names a person belongs to the applicants it names, matched with the name rules of names.py (order,
accents, middle names, titles); a joint account's statement names both. A name that matches no
applicant is a person who is not on this case: a person decides, never a silent VERIFIED.
"""
from dataclasses import dataclass
from datetime import date

from leadflow.domain.verification.names import names_match, people_named, same_person
from leadflow.domain.verification.notes import Note

CLIENT, CO_APPLICANT = "client", "co_applicant"
ROLES = (CLIENT, CO_APPLICANT)

# EU and EEA states and Switzerland: their citizens need no residence permit to live and work in
# Germany. ISO 3166 alpha-2 (what a form stores) and ICAO 9303 alpha-3 (what an MRZ writes; "D" is
# Germany there).
FREE_MOVEMENT = frozenset({
    "AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT", "LV", "LT", "LU",
    "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE", "IS", "LI", "NO", "CH",
    "AUT", "BEL", "BGR", "HRV", "CYP", "CZE", "DNK", "EST", "FIN", "FRA", "D", "DEU", "GRC", "HUN", "IRL", "ITA",
    "LVA", "LTU", "LUX", "MLT", "NLD", "POL", "PRT", "ROU", "SVK", "SVN", "ESP", "SWE", "ISL", "LIE", "NOR", "CHE",
})

# The field that names the person on each type; an ID names its holder in its MRZ.
NAMED_BY = {"payslip": "employee", "bank_statement": "holder", "employment_contract": "employee",
            "wage_tax_certificate": "employee", "tax_assessment": "taxpayer"}
IDENTITY_TYPES = ("id_document", "residence_permit")

# What the client reads when the advisor refuses a document that is not theirs.
REFUSED = Note("not_on_case_refused",
               "This document belongs to someone who is not on this case. Please upload your own.",
               "Dieses Dokument gehört jemandem, der nicht zu diesem Fall gehört. Bitte laden Sie Ihr eigenes hoch.")


@dataclass(frozen=True)
class Person:
    """An applicant as the rules know them; `id` is None for a client not stored yet."""
    id: int | None
    name: str
    citizenship: str | None = None
    role: str = CLIENT
    date_of_birth: date | None = None


@dataclass(frozen=True)
class Whose:
    """Whose a document is: the applicants it names (case order), the names on it that match none."""
    applicants: tuple[int | None, ...] = ()
    strangers: tuple[str, ...] = ()
    named: str | None = None   # the name as the document writes it; None when it names no one we read

    @property
    def joint(self) -> bool:
        return len(self.applicants) > 1


def needs_residence_permit(citizenship: str | None) -> bool | None:
    """True for a citizen of a state outside the EU, the EEA and Switzerland, False inside; None
    while the citizenship is unknown (then the permit is not required, but the client is asked)."""
    code = (citizenship or "").strip().upper()
    if not code or code == "UNKNOWN":
        return None
    return code not in FREE_MOVEMENT


def named_on(document_type: str | None, fields: dict) -> str | None:
    """The person a document names, from its confidently read fields; None when it names no one we read."""
    if document_type in IDENTITY_TYPES:
        given, surname = fields.get("given_names"), fields.get("surname")
        # Given names alone are not a person: without the surname a stranger cannot be told apart.
        if not (isinstance(surname, str) and surname.strip()):
            return None
        return " ".join(p.strip() for p in (given, surname) if isinstance(p, str) and p.strip())
    value = fields.get(NAMED_BY.get(document_type or "", ""))
    return value.strip() if isinstance(value, str) and value.strip() else None


def whose(document_type: str | None, fields: dict, people: tuple[Person, ...]) -> Whose:
    """Match the person (or people) a document names to the case's applicants."""
    named = named_on(document_type, fields)
    if named is None or not people:
        return Whose(named=named)
    if document_type in IDENTITY_TYPES:
        # The MRZ splits surname from given names: its own rule reads truncation and order exactly.
        found = tuple(p.id for p in people if names_match(p.name, fields.get("surname"), fields.get("given_names"),
                                                           fields.get("mrz_format")))
        return Whose(found[:1], () if found else (named,), named)
    matched, strangers = [], []
    for part in people_named(named) or [named]:
        person = next((p for p in people if same_person(p.name, part)), None)
        if person is None:
            strangers.append(part)
        elif person.id not in matched:
            matched.append(person.id)
    order = [p.id for p in people]
    return Whose(tuple(sorted(matched, key=order.index)), tuple(strangers), named)
