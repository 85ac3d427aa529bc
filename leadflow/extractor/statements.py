"""Bank statements that arrive as data, not paper: ISO 20022 camt.053 XML and SWIFT MT940, read without OCR."""
import logging
import re
from decimal import Decimal, InvalidOperation

import mt940
from defusedxml import ElementTree
from defusedxml.common import DefusedXmlException

from leadflow.extractor.errors import Unreadable
from leadflow.extractor.fields import parse as p
from leadflow.extractor.fields.bookings import booking

log = logging.getLogger(__name__)

SALARY_PURPOSE = {"SALA", "PAYR", "BONU", "PENS"}  # ISO 20022 purpose / sub-family codes for pay


def read_camt053(data: bytes) -> tuple[dict, str, int]:
    """(fields, a readable rendering, number of statements) of a camt.053 file."""
    try:
        root = ElementTree.fromstring(data)
    except (ElementTree.ParseError, DefusedXmlException, ValueError) as exc:
        raise Unreadable(f"the camt.053 XML cannot be parsed: {exc}") from exc
    statements = [e for e in root.iter() if _local(e.tag) == "Stmt"]
    if not statements:
        raise Unreadable("the camt.053 file holds no statement (Stmt)")
    stmt = statements[0]
    account = _child(stmt, "Acct")
    balances = {}
    for bal in (e for e in stmt if _local(e.tag) == "Bal"):
        code = _text(_first(_first(bal, "Tp"), "Cd"))
        balances.setdefault(code, (_signed(bal), _text(_first(_first(bal, "Dt"), "Dt"))
                                   or (_text(_first(_first(bal, "Dt"), "DtTm")) or "")[:10] or None))
    opening = balances.get("OPBD") or balances.get("PRCD")
    closing = balances.get("CLBD")
    span = _child(stmt, "FrToDt")
    start = (_text(_first(span, "FrDtTm")) or "")[:10] or (opening[1] if opening else None)
    end = (_text(_first(span, "ToDtTm")) or "")[:10] or (closing[1] if closing else None)
    entries, credits, bookings = [], [], []
    for entry in (e for e in stmt if _local(e.tag) == "Ntry"):
        amount = _signed(entry)
        info = " ".join(filter(None, (_text(e) for e in entry.iter() if _local(e.tag) in ("Ustrd", "AddtlNtryInf", "Nm"))))
        codes = {_text(e) for e in entry.iter() if _local(e.tag) in ("SubFmlyCd", "Cd")}
        booked = _text(_first(_first(entry, "BookgDt"), "Dt")) or (_text(_first(_first(entry, "BookgDt"), "DtTm")) or "")[:10]
        entries.append(f"{booked}  {amount}  {info}".strip())
        # The other party: the creditor of money paid out, the debtor of money paid in.
        party = _first(_first(entry, "RltdPties"), "Cdtr" if amount and amount.startswith("-") else "Dbtr")
        purpose = " ".join(filter(None, (_text(e) for e in entry.iter() if _local(e.tag) in ("Ustrd", "AddtlNtryInf"))))
        bookings.append(booking(booked or None, _text(_first(party, "Nm")), purpose, amount))
        if amount and not amount.startswith("-") and (codes & SALARY_PURPOSE or _SALARY.search(info)):
            credits.append(amount)
    servicer = _first(account, "Svcr")
    fields = {
        "bank": _text(_first(servicer, "Nm")) or _text(_first(servicer, "BICFI")) or _text(_first(servicer, "BIC")),
        # The account is an IBAN element, or an IBAN under Othr/Id in some exports.
        "iban": p.iban(_text(_first(account, "IBAN")) or _text(_first(_first(account, "Othr"), "Id")) or ""),
        "holder": _text(_first(_first(account, "Ownr"), "Nm")),
        "period_start": start,
        "period_end": end,
        "opening_balance": opening[0] if opening else None,
        "closing_balance": closing[0] if closing else None,
        "salary_credits": credits,
        "bookings": bookings,
    }
    rendering = "\n".join([f"camt.053 statement {_text(_child(stmt, 'Id')) or ''}".strip(),
                           f"IBAN {fields['iban'] or ''}", f"Kontoinhaber {fields['holder'] or ''}",
                           f"Zeitraum {start or ''} - {end or ''}",
                           f"Alter Kontostand {fields['opening_balance'] or ''}",
                           f"Neuer Kontostand {fields['closing_balance'] or ''}", *entries])
    return fields, rendering, len(statements)


def read_mt940(data: bytes) -> tuple[dict, str, int]:
    text = _decode(data)
    transactions = mt940.models.Transactions()
    try:
        transactions.parse(text)
    except Exception as exc:  # noqa: BLE001 - the library raises bare errors on malformed tags
        raise Unreadable(f"the MT940 file cannot be parsed: {type(exc).__name__}: {exc}") from exc
    info = transactions.data
    opening = info.get("final_opening_balance") or info.get("intermediate_opening_balance")
    closing = info.get("final_closing_balance") or info.get("closing_balance")
    if opening is None and closing is None and not transactions.transactions:
        raise Unreadable("the MT940 file holds no balances or bookings")
    account = info.get("account_identification") or ""
    bic = account.split("/")[0] if "/" in account and re.fullmatch(r"[A-Z]{6}[A-Z0-9]{2,5}", account.split("/")[0]) else None
    credits, entries, bookings = [], [], []
    for tx in transactions.transactions:
        details = tx.data.get("transaction_details") or ""
        amount = _money(tx.data.get("amount"))
        entries.append(f"{tx.data.get('date')}  {amount}  {details}")
        bookings.append(booking(str(tx.data["date"]) if tx.data.get("date") else None, tx.data.get("applicant_name"),
                                details, amount))
        if amount and not amount.startswith("-") and _SALARY.search(details):
            credits.append(amount)
    fields = {
        "bank": bic,
        "iban": p.iban(account.replace("/", " ")),
        "holder": None,  # MT940 does not carry the account holder
        "period_start": str(opening.date) if opening is not None else None,
        "period_end": str(closing.date) if closing is not None else None,
        "opening_balance": _money(opening.amount) if opening is not None else None,
        "closing_balance": _money(closing.amount) if closing is not None else None,
        "salary_credits": credits,
        "bookings": bookings,
    }
    rendering = "\n".join([f"MT940 Kontoauszug {account}", f"IBAN {fields['iban'] or ''}",
                           f"Alter Kontostand {fields['opening_balance'] or ''}",
                           f"Neuer Kontostand {fields['closing_balance'] or ''}", *entries])
    return fields, rendering, max(1, text.count(":20:"))


_SALARY = re.compile(r"\b(lohn|gehalt|entgelt|bezüge|besoldung|salary|payroll|wages?)\b", re.IGNORECASE)


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")  # older bank exports; every byte decodes


def _money(amount) -> str | None:
    if amount is None:
        return None
    try:
        return f"{Decimal(str(amount.amount)):.2f}"
    except (InvalidOperation, AttributeError):
        return None


def _signed(element) -> str | None:
    raw = _text(_child(element, "Amt"))
    if raw is None:
        return None
    try:
        value = Decimal(raw)
    except InvalidOperation:
        return None
    if _text(_child(element, "CdtDbtInd")) == "DBIT":
        value = -value
    return f"{value:.2f}"


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _child(element, name):
    return None if element is None else next((e for e in element if _local(e.tag) == name), None)


def _first(element, name):
    if element is None:
        return None
    return next((e for e in element.iter() if _local(e.tag) == name and e is not element), None)


def _text(element):
    return element.text.strip() if element is not None and element.text and element.text.strip() else None
