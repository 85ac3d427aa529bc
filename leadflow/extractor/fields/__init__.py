"""The typed fields extracted per document type: which exist, their JSON Schema, and their parser."""
from dataclasses import dataclass
from typing import Callable

from leadflow.extractor.fields import (bank_statement, employment_contract, id_document, invoice, payslip,
                                       tax)
from leadflow.extractor.reading import Reading


@dataclass(frozen=True)
class FieldSet:
    schemas: dict[str, dict]  # field name -> JSON Schema fragment, in the order content lists them
    parse: Callable[[Reading], dict]


def extract_fields(document_type: str, reading: Reading) -> tuple[dict, dict[str, dict]]:
    """Return (fields, field schemas) for the type; every declared field is present, null when not found."""
    field_set = REGISTRY.get(document_type)
    if field_set is None:
        return {}, {}
    found = field_set.parse(reading)
    return {name: found.get(name) for name in field_set.schemas}, dict(field_set.schemas)


REGISTRY: dict[str, FieldSet] = {
    "payslip": FieldSet(payslip.SCHEMAS, payslip.parse),
    "bank_statement": FieldSet(bank_statement.SCHEMAS, bank_statement.parse),
    "tax_assessment": FieldSet(tax.ASSESSMENT_SCHEMAS, tax.parse_assessment),
    "wage_tax_certificate": FieldSet(tax.CERTIFICATE_SCHEMAS, tax.parse_certificate),
    "employment_contract": FieldSet(employment_contract.SCHEMAS, employment_contract.parse),
    "invoice": FieldSet(invoice.SCHEMAS, invoice.parse),
    "receipt": FieldSet(invoice.SCHEMAS, invoice.parse),
    "id_document": FieldSet(id_document.SCHEMAS, id_document.parse),
    "residence_permit": FieldSet(id_document.SCHEMAS, id_document.parse),
}
