"""The typed fields extracted per document type: which exist, their JSON Schema, and their parser."""
from dataclasses import dataclass
from typing import Callable

from leadflow.extractor.fields import (bank_statement, employment_contract, id_document, invoice, payslip,
                                       receipt, tax)
from leadflow.extractor.fields.finding import FieldsRead, plain
from leadflow.extractor.reading import Reading

# A reader that returns bare values (the MRZ's zone) vouches for them this much.
PLAIN_CONFIDENCE = 0.9


@dataclass(frozen=True)
class FieldSet:
    schemas: dict[str, dict]  # field name -> JSON Schema fragment, in the order content lists them
    parse: Callable[[Reading], dict | FieldsRead]


@dataclass(frozen=True)
class TypedFields:
    fields: dict
    schemas: dict[str, dict]
    confidence: dict[str, float]  # every declared field, 0.0 when null
    evidence: dict[str, dict]


def read_fields(document_type: str, reading: Reading) -> TypedFields:
    """Every declared field of the type (null when not found), its schema, and its confidence."""
    field_set = REGISTRY.get(document_type)
    if field_set is None:
        return TypedFields({}, {}, {}, {})
    found = field_set.parse(reading)
    if not isinstance(found, FieldsRead):
        found = plain(found, field_set.schemas, PLAIN_CONFIDENCE)
    fields = {name: found.fields.get(name) for name in field_set.schemas}
    confidence = {name: (found.confidence.get(name, 0.0) if fields[name] is not None else 0.0)
                  for name in field_set.schemas}
    evidence = {name: found.evidence[name] for name in field_set.schemas if name in found.evidence
                and fields[name] is not None}
    return TypedFields(fields, dict(field_set.schemas), confidence, evidence)


def extract_fields(document_type: str, reading: Reading) -> tuple[dict, dict[str, dict]]:
    """Return (fields, field schemas) for the type; every declared field is present, null when not found."""
    found = read_fields(document_type, reading)
    return found.fields, found.schemas


REGISTRY: dict[str, FieldSet] = {
    "payslip": FieldSet(payslip.SCHEMAS, payslip.parse),
    "bank_statement": FieldSet(bank_statement.SCHEMAS, bank_statement.parse),
    "tax_assessment": FieldSet(tax.ASSESSMENT_SCHEMAS, tax.parse_assessment),
    "wage_tax_certificate": FieldSet(tax.CERTIFICATE_SCHEMAS, tax.parse_certificate),
    "employment_contract": FieldSet(employment_contract.SCHEMAS, employment_contract.parse),
    "invoice": FieldSet(invoice.SCHEMAS, invoice.parse),
    "receipt": FieldSet(receipt.SCHEMAS, receipt.parse),
    "id_document": FieldSet(id_document.SCHEMAS, id_document.parse),
    "residence_permit": FieldSet(id_document.SCHEMAS, id_document.parse),
}
