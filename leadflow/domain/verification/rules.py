"""The registry of per-type rules: document type -> the fields it needs read and its checks."""
from leadflow.domain.verification import (bank_statement, employment_contract, id_document, payslip, tax_assessment,
                                          wage_tax_certificate)

RULES = {
    "payslip": payslip.RULES,
    "bank_statement": bank_statement.RULES,
    "tax_assessment": tax_assessment.RULES,
    "wage_tax_certificate": wage_tax_certificate.RULES,
    "employment_contract": employment_contract.RULES,
    "id_document": id_document.ID_DOCUMENT_RULES,
    "residence_permit": id_document.RESIDENCE_PERMIT_RULES,
}
