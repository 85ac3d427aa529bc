"""A complete case built from tests/samples for the package and erasure tests: every checklist
item VERIFIED, each document's original file and its extracted content (the sample's expected
fields) in the app's storage, as the pipeline leaves them."""
import json
from datetime import timedelta

from tests.corpus import SAMPLES
from tests.plugins.live import TODAY

# (sample file, its expected fields' file or None, type, title)
CASE_FILES = (
    ("ids/passporteye_53_id-d.jpg", None, "id_document", "Personalausweis"),
    ("payslips/synthetic_payslip_A1_01.pdf", "payslips/synthetic_payslip_A1_01.expected.json", "payslip", "Payslip August"),
    ("payslips/synthetic_payslip_A1_02.pdf", "payslips/synthetic_payslip_A1_02.expected.json", "payslip", "Payslip September"),
    ("payslips/synthetic_payslip_A1_03.pdf", "payslips/synthetic_payslip_A1_03.expected.json", "payslip", "Payslip October"),
    ("bank-statements/synthetic_bank_statement_A1_01.pdf", "bank-statements/synthetic_bank_statement_A1_01.expected.json",
     "bank_statement", "Statement August"),
    ("bank-statements/synthetic_bank_statement_A1_02.pdf", "bank-statements/synthetic_bank_statement_A1_02.expected.json",
     "bank_statement", "Statement September"),
    ("bank-statements/synthetic_bank_statement_A1_03.pdf", "bank-statements/synthetic_bank_statement_A1_03.expected.json",
     "bank_statement", "Statement October"),
    ("tax/synthetic_wage_tax_certificate_A1_01.pdf", "tax/synthetic_wage_tax_certificate_A1_01.expected.json",
     "wage_tax_certificate", "Lohnsteuerbescheinigung 2025"),
    ("tax/synthetic_tax_assessment_A1_01.pdf", "tax/synthetic_tax_assessment_A1_01.expected.json",
     "tax_assessment", "Steuerbescheid 2025"),
    ("employment-contracts/synthetic_employment_contract_A1_01.pdf",
     "employment-contracts/synthetic_employment_contract_A1_01.expected.json", "employment_contract", "Arbeitsvertrag"),
)
ID_FIELDS = {"surname": "MUSTERMANN", "given_names": "RAHUL", "nationality": "D", "date_of_expiry": "2031-08-01",
             "document_number": "T22000129"}


def seed_complete_case(app, brokerage_id: int, workspace_id: int, owner_id: int, skip: tuple[str, ...] = ()) -> list[dict]:
    """Store the case's files and VERIFIED documents (oldest first, so the first sample is the
    oldest); returns per document {id, path, type, fields, storage_key}. `skip`: types left out."""
    from leadflow.extensions import db
    from leadflow.models import Document, DocumentVersion, new_id
    from leadflow.services import counts
    storage = app.extensions["leadflow"].storage
    made = []
    with app.app_context():
        for n, (sample, expected, kind, title) in enumerate(CASE_FILES):
            if kind in skip:
                continue
            path = SAMPLES / sample
            fields = json.loads((SAMPLES / expected).read_text())["fields"] if expected else dict(ID_FIELDS)
            document_id = new_id()
            key = f"brokerages/{brokerage_id}/documents/{document_id}/original/{path.name}"
            storage.put(key, path.read_bytes(), "image/jpeg" if path.suffix == ".jpg" else "application/pdf")
            content_key = f"brokerages/{brokerage_id}/documents/{document_id}/content/v1-generated.json"
            storage.put(content_key, json.dumps({"fields": fields, "field_confidence": {k: 0.95 for k in fields}}).encode(),
                        "application/json")
            at = TODAY - timedelta(days=20 - n)
            db.session.add(Document(id=document_id, brokerage_id=brokerage_id, owner_id=owner_id, workspace_id=workspace_id,
                                    title=title, kind=kind, document_type=kind, confidence=0.95, status="VERIFIED",
                                    filename=path.name, content_type="application/pdf", size_bytes=path.stat().st_size,
                                    storage_key=key, verification_notes=[], created_at=at, updated_at=at,
                                    status_changed_at=at, verified_at=at))
            db.session.flush()
            db.session.add(DocumentVersion(document_id=document_id, part="content", number=1, cause="generated",
                                           storage_key=content_key, created_at=at))
            made.append({"id": document_id, "path": path, "type": kind, "fields": fields, "storage_key": key})
        db.session.commit()
        counts.recount(db.session)
        db.session.commit()
        db.session.remove()
    return made


def update_user(app, user_id: int, **values) -> None:
    """Set columns of a user's row (their name, their language) and commit."""
    from leadflow.extensions import db
    from leadflow.models import User
    with app.app_context():
        user = db.session.get(User, user_id)
        for name, value in values.items():
            setattr(user, name, value)
        db.session.commit()
        db.session.remove()
