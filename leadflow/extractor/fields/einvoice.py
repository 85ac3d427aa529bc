"""Reading the structured e-invoice embedded in a PDF (ZUGFeRD/Factur-X CII, or UBL) without OCR."""
import logging
from decimal import Decimal, InvalidOperation

from defusedxml import ElementTree
from defusedxml.common import DefusedXmlException

log = logging.getLogger(__name__)

# Names under which e-invoice standards embed their XML (ZUGFeRD 1/2, Factur-X, XRechnung, UBL).
XML_NAMES = ("factur-x.xml", "zugferd-invoice.xml", "xrechnung.xml", "ZUGFeRD-invoice.xml")


def find_invoice_xml(attachments: dict[str, bytes]) -> bytes | None:
    for name in XML_NAMES:
        if name in attachments:
            return attachments[name]
    for name, data in attachments.items():
        if name.lower().endswith(".xml") and (b"CrossIndustry" in data[:4000] or b"Invoice" in data[:4000]):
            return data
    return None


def parse_invoice_xml(data: bytes) -> dict | None:
    """Fields from CII or UBL XML; None when the XML is neither or cannot be parsed."""
    try:
        # defusedxml: the XML comes from an uploaded file, so entity bombs and external
        # entities must be refused.
        root = ElementTree.fromstring(data)
    except (ElementTree.ParseError, DefusedXmlException, ValueError) as exc:
        log.info("embedded invoice XML unreadable: %s", exc)
        return None
    kind = local(root.tag)
    if kind == "CrossIndustryInvoice" or kind == "CrossIndustryDocument":
        return _cii(root)
    if kind in ("Invoice", "CreditNote"):
        return _ubl(root)
    return None


def _cii(root) -> dict:
    summation = first(root, "SpecifiedTradeSettlementHeaderMonetarySummation")
    currency = text(first(root, "InvoiceCurrencyCode"))
    tax = None
    if summation is not None:
        taxes = [e for e in summation.iter() if local(e.tag) == "TaxTotalAmount"]
        # CII may state the tax twice (invoice and accounting currency); take the invoice's.
        chosen = next((e for e in taxes if e.get("currencyID") in (None, currency)), taxes[0] if taxes else None)
        tax = decimal(text(chosen))
    issued = text(first(first(root, "IssueDateTime"), "DateTimeString"))
    return {
        "issuer": text(first(first(root, "SellerTradeParty"), "Name")),
        "number": text(first(first(root, "ExchangedDocument") or first(root, "HeaderExchangedDocument"), "ID")),
        "date": _date_102(issued),
        "net": decimal(text(first(summation, "TaxBasisTotalAmount"))),
        "tax": tax,
        "total": decimal(text(first(summation, "GrandTotalAmount"))),
        "currency": currency,
    }


def _ubl(root) -> dict:
    supplier = first(root, "AccountingSupplierParty")
    monetary = first(root, "LegalMonetaryTotal")
    tax_total = next((e for e in root if local(e.tag) == "TaxTotal"), None)
    issuer = text(first(first(supplier, "PartyName"), "Name")) or text(first(supplier, "RegistrationName"))
    return {
        "issuer": issuer,
        "number": text(child(root, "ID")),
        "date": text(child(root, "IssueDate")),
        "net": decimal(text(first(monetary, "TaxExclusiveAmount"))),
        "tax": decimal(text(child(tax_total, "TaxAmount"))),
        "total": decimal(text(first(monetary, "TaxInclusiveAmount")) or text(first(monetary, "PayableAmount"))),
        "currency": text(child(root, "DocumentCurrencyCode")),
    }


def local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def first(element, name: str):
    """The first descendant with this local name (namespaces differ between standard versions)."""
    if element is None:
        return None
    return next((e for e in element.iter() if local(e.tag) == name and e is not element), None)


def child(element, name: str):
    if element is None:
        return None
    return next((e for e in element if local(e.tag) == name), None)


def text(element) -> str | None:
    if element is None or element.text is None:
        return None
    return element.text.strip() or None


def decimal(raw: str | None) -> str | None:
    if raw is None:
        return None
    try:
        return f"{Decimal(raw):.2f}"
    except InvalidOperation:
        return None


def _date_102(raw: str | None) -> str | None:
    if raw and len(raw) == 8 and raw.isdigit():  # UN/CEFACT format 102: YYYYMMDD
        return f"{raw[:4]}-{raw[4:6]}-{raw[6:]}"
    return raw
