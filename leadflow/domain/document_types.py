"""The kinds of document the brokerage handles: their codes and their names, in one table.

The names are English message ids: the catalogs under translations/ hold their German, and every
screen (staff pages, the client's portal, notes) takes its words from here through them.
"""
from dataclasses import dataclass


def N_(msgid: str) -> str:
    """Marks a message id for `pybabel extract`; the translation happens where the words are shown."""
    return msgid


@dataclass(frozen=True)
class DocumentType:
    code: str
    name: str
    """As a title or a list entry: 'Bank statement'."""
    in_sentence: str
    """With its article, for the middle of a sentence: 'a bank statement'."""


TYPES = {t.code: t for t in (
    DocumentType("payslip", N_("Payslip"), N_("a payslip")),
    DocumentType("bank_statement", N_("Bank statement"), N_("a bank statement")),
    DocumentType("tax_assessment", N_("Tax assessment"), N_("a tax assessment")),
    DocumentType("wage_tax_certificate", N_("Wage tax certificate"), N_("a wage tax certificate")),
    DocumentType("employment_contract", N_("Employment contract"), N_("an employment contract")),
    DocumentType("id_document", N_("Passport or ID card"), N_("a passport or ID card")),
    DocumentType("residence_permit", N_("Residence permit"), N_("a residence permit")),
    DocumentType("invoice", N_("Invoice"), N_("an invoice")),
    DocumentType("receipt", N_("Receipt"), N_("a receipt")),
)}

UNKNOWN_IN_SENTENCE = N_("an unknown document")


def name(code: str | None) -> str:
    """The English name of a type code; a readable form of a code the table does not know."""
    if not code:
        return ""
    known = TYPES.get(code)
    return known.name if known else code.replace("_", " ").capitalize()


def in_sentence(code: str | None) -> str:
    known = TYPES.get(code or "")
    return known.in_sentence if known else UNKNOWN_IN_SENTENCE
