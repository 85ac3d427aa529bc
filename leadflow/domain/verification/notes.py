"""What verification says and about whom: the types every rule module shares.

A module of its own so that the rule modules import it without importing the package that
registers them.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Note:
    code: str
    en: str
    de: str
    fields: tuple[str, ...] = ()
    """For `fields_unreadable` and the `..._unconfirmed` doubts: the fields a person is to read, so the
    review queue can ask for them."""

    def as_dict(self) -> dict:
        body = {"code": self.code, "en": self.en, "de": self.de}
        if self.fields:
            body["fields"] = list(self.fields)
        return body


@dataclass(frozen=True)
class Applicant:
    """Whom a document should belong to: the client who uploaded it (an ID must carry their profile
    name), and, for a document of a case, the case's applicants (it must name one of them)."""
    name: str | None = None
    case: tuple = ()      # leadflow.domain.applicants.Person; empty: no case, no one to match
    assigned: tuple = ()  # the applicant ids a person gave the document to: whose it is is settled
