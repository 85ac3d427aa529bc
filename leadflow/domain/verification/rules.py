"""The registry of per-type rules: document type -> (fields, applicant, today) -> notes."""
from leadflow.domain.verification import (bank_statement, employment_contract, id_document, payslip, tax_assessment,
                                          wage_tax_certificate)

RULES = {
    "payslip": payslip.check,
    "bank_statement": bank_statement.check,
    "tax_assessment": tax_assessment.check,
    "wage_tax_certificate": wage_tax_certificate.check,
    "employment_contract": employment_contract.check,
    "id_document": id_document.check_id_document,
    "residence_permit": id_document.check_residence_permit,
}
