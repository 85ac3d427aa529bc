"""The lender package and erasure: their domain rules (when a case is complete, what the files are
called, when a closed case is due, who may do what), and their use cases on an in-memory database
with the fakes of the ports."""
import io
import json
import zipfile
from datetime import datetime, timedelta

import pytest
from sqlalchemy import func, select

from leadflow.domain import audience
from leadflow.domain.audience import Role
from leadflow.domain.checklist import CaseDocument, progress
from leadflow.domain.lifecycle import Status
from leadflow.domain.packages import (CaseIncomplete, chosen_documents, erasure_due, file_name, incomplete_items,
                                      retention_cutoff)
from leadflow.models import (AuditEntry, CreditReservation, Document, DocumentVersion, ErasureRecord, ExtractionJob,
                             LenderPackage, User, Workspace, WorkspaceMember)
from leadflow.services import erasure, packages
from leadflow.mail import Mail
from tests.unit.fakes import FakeMail, world  # noqa: F401  (the fixture)

COMPLETE = (("id_document", 1, {"nationality": "D"}), ("payslip", 3, {"period": "2026-10"}),
            ("bank_statement", 3, {"period_end": "2026-10-31"}), ("wage_tax_certificate", 1, {"year": 2025}),
            ("tax_assessment", 1, {"tax_year": 2025}), ("employment_contract", 1, {"start_date": "2020-01-01"}))


def _docs(*spec):
    return [CaseDocument(id=f"{kind}-{n}", title=kind, status=status, type=kind)
            for kind, count, status in spec for n in range(count)]


# --- the rules ---------------------------------------------------------------------------------

def test_a_case_with_every_item_verified_is_complete_and_sends_the_newest_verified_documents():
    states = progress(_docs(("id_document", 1, "VERIFIED"), ("residence_permit", 1, "VERIFIED"),
                            ("payslip", 4, "VERIFIED"), ("bank_statement", 3, "VERIFIED"),
                            ("wage_tax_certificate", 1, "VERIFIED"), ("tax_assessment", 1, "VERIFIED"),
                            ("employment_contract", 1, "VERIFIED")))
    assert incomplete_items(states) == []
    chosen = chosen_documents(states)
    assert [key for key, _ in chosen].count("payslips") == 3
    assert ("payslips", "payslip-3") not in chosen   # the fourth (oldest) payslip stays home
    assert chosen[0] == ("identity", "id_document-0")


def test_an_aged_out_payslip_stays_home_and_a_newer_one_goes_in_its_place():
    documents = _docs(("id_document", 1, "VERIFIED"), ("residence_permit", 1, "VERIFIED"),
                      ("payslip", 4, "VERIFIED"), ("bank_statement", 3, "VERIFIED"),
                      ("wage_tax_certificate", 1, "VERIFIED"), ("tax_assessment", 1, "VERIFIED"),
                      ("employment_contract", 1, "VERIFIED"))
    documents[2] = CaseDocument(id="payslip-0", title="payslip", status="VERIFIED", type="payslip", replace="stale")
    chosen = chosen_documents(progress(documents))
    payslips = [document_id for key, document_id in chosen if key == "payslips"]
    assert payslips == ["payslip-1", "payslip-2", "payslip-3"]


def test_a_missing_rejected_or_waiting_item_keeps_the_case_from_a_package():
    states = progress(_docs(("id_document", 1, "VERIFIED"), ("payslip", 2, "VERIFIED"), ("payslip", 1, "EXTRACTING"),
                            ("bank_statement", 1, "REJECTED")))
    missing = incomplete_items(states)
    assert {"payslips", "bank_statements", "tax_assessment"} <= set(missing)
    # Nobody has told the client's citizenship: the permit is not required (the portal asks for it).
    assert "residence_permit" not in missing
    with pytest.raises(CaseIncomplete) as raised:
        chosen_documents(states)
    assert raised.value.items == missing


@pytest.mark.parametrize("position, kind, fields, original, expected", [
    (1, "payslip", {"period": "2026-10"}, "Gehalt Okt.PDF", "01_payslip_2026-10.pdf"),
    (5, "bank_statement", {"period_start": "2026-09-01", "period_end": "2026-09-30"}, "kto.pdf",
     "05_bank_statement_2026-09.pdf"),
    (8, "wage_tax_certificate", {"year": 2025}, "lstb.pdf", "08_wage_tax_certificate_2025.pdf"),
    (2, "id_document", {"nationality": "D"}, "ausweis.jpeg", "02_id_document.jpeg"),
    (3, "payslip", {"period": None}, "x", "03_payslip.bin"),
    (4, "payslip", {"period": "../../etc/10 2026"}, "a.pdf", "04_payslip_..-..-etc-10-2026.pdf"),
])
def test_a_packed_file_is_named_by_its_place_its_type_and_its_month(position, kind, fields, original, expected):
    name = file_name(position, kind, fields, original)
    assert name == expected
    assert "/" not in name and " " not in name


def test_a_closed_case_is_due_for_erasure_once_its_retention_period_has_passed():
    closed = datetime(2026, 1, 1, 9, 0)
    assert not erasure_due(None, datetime(2099, 1, 1), 30)
    assert not erasure_due(closed, closed + timedelta(days=30) - timedelta(seconds=1), 30)
    assert erasure_due(closed, closed + timedelta(days=30), 30)
    assert retention_cutoff(closed + timedelta(days=30), 30) == closed


@pytest.mark.parametrize("role, build, close, erase", [
    (Role.CLIENT, False, False, False),
    (Role.ADVISOR, True, True, False),
    (Role.BROKERAGE_ADMIN, True, True, True),
    (Role.PLATFORM_ADMIN, False, False, False),
])
def test_who_may_build_a_package_close_a_case_and_erase_a_client(role, build, close, erase):
    assert audience.may_build_package(role) is build
    assert audience.may_close_case(role) is close
    assert audience.may_erase(role) is erase


# --- the use cases -----------------------------------------------------------------------------

def _complete_case(world) -> list[str]:
    made = []
    for kind, count, fields in COMPLETE:
        for _ in range(count):
            made.append(world.extracted(fields=fields, document_type=kind))
    return made


def test_asking_for_a_package_of_a_complete_case_stores_it_and_sends_the_build(world):
    _complete_case(world)
    package = packages.request(world.session, world.ports, world.advisor, world.case.id)
    assert package.status == "building"
    assert world.jobs.names() == ["build-package"]
    # A second click while it builds asks for no second package.
    assert packages.request(world.session, world.ports, world.advisor, world.case.id).id == package.id
    assert world.session.scalar(select(func.count()).select_from(LenderPackage)) == 1


def test_an_incomplete_case_another_brokerage_and_a_client_get_no_package(world):
    world.extracted(document_type="payslip")
    with pytest.raises(packages.Incomplete):
        packages.request(world.session, world.ports, world.advisor, world.case.id)
    _complete_case(world)
    with pytest.raises(packages.NotFound):
        packages.request(world.session, world.ports, world.stranger, world.case.id)
    with pytest.raises(packages.NotAllowed):
        packages.request(world.session, world.ports, world.client, world.case.id)
    with pytest.raises(packages.NotAllowed):
        packages.request(world.session, world.ports, world.platform_admin, world.case.id)
    assert world.session.scalar(select(func.count()).select_from(LenderPackage)) == 0
    assert world.jobs.sent == []


def test_the_build_writes_one_zip_once_and_a_link_is_signed_for_staff_only(world):
    made = _complete_case(world)
    package = packages.request(world.session, world.ports, world.advisor, world.case.id)
    assert packages.build(world.session, world.ports, package.id, world.brokerage.id) == "ready"
    assert packages.build(world.session, world.ports, package.id, world.brokerage.id) == "nothing to do"
    world.session.expire_all()
    stored = world.session.get(LenderPackage, package.id)
    assert (stored.status, stored.done_steps, stored.total_steps) == ("ready", len(made) + 2, len(made) + 2)
    archive = zipfile.ZipFile(io.BytesIO(world.storage.get(stored.storage_key)))
    names = archive.namelist()
    assert names[:2] == ["01_id_document.pdf", "02_payslip_2026-10.pdf"] and names[-2:] == [
        "00_cover_sheet.pdf", "extracted_data.json"]
    assert archive.read("00_cover_sheet.pdf").startswith(b"%PDF")
    data = json.loads(archive.read("extracted_data.json"))
    assert data["case"]["clients"] == [{"name": "Rahul Mustermann", "email": "client@example.test"}]
    assert packages.download_url(world.session, world.ports, world.advisor, package.id).startswith("https://storage.test/")
    with pytest.raises(packages.NotFound):
        packages.download_url(world.session, world.ports, world.stranger, package.id)
    with pytest.raises(packages.NotAllowed):
        packages.download_url(world.session, world.ports, world.client, package.id)


def test_a_build_of_a_case_that_lost_a_document_fails_and_says_why(world):
    made = _complete_case(world)
    package = packages.request(world.session, world.ports, world.advisor, world.case.id)
    world.session.execute(Document.__table__.update().where(Document.id == made[0]).values(status="REJECTED"))
    world.session.commit()
    assert packages.build(world.session, world.ports, package.id, world.brokerage.id) == "case incomplete"
    world.session.expire_all()
    assert (world.session.get(LenderPackage, package.id).status,
            world.session.get(LenderPackage, package.id).error) == ("failed", "case_incomplete")


def test_a_build_that_cannot_read_a_documents_data_now_raises_for_a_retry_and_packs_nothing(world, monkeypatch):
    from leadflow.storage.base import StorageError
    _complete_case(world)
    package = packages.request(world.session, world.ports, world.advisor, world.case.id)
    real_get = world.storage.get

    def flaky(key):
        if "/versions/" in key:
            raise StorageError("storage timed out (fake)")
        return real_get(key)
    monkeypatch.setattr(world.storage, "get", flaky)
    # The case page reads around it (a check says "not checked"); the package does not go without the data.
    with pytest.raises(StorageError):
        packages.build(world.session, world.ports, package.id, world.brokerage.id)
    world.session.rollback()
    world.session.expire_all()
    assert world.session.get(LenderPackage, package.id).status == "building"
    assert not [k for k in world.storage.objects if "/packages/" in k]

    monkeypatch.setattr(world.storage, "get", real_get)
    assert packages.build(world.session, world.ports, package.id, world.brokerage.id) == "ready"


def test_a_build_whose_retries_are_spent_is_marked_failed_once_and_can_be_asked_for_again(world):
    _complete_case(world)
    package = packages.request(world.session, world.ports, world.advisor, world.case.id)
    assert packages.fail(world.session, package.id, world.brokerage.id, "StorageError: storage is unreachable")
    assert not packages.fail(world.session, package.id, world.brokerage.id, "again")
    assert packages.build(world.session, world.ports, package.id, world.brokerage.id) == "nothing to do"
    world.session.expire_all()
    assert world.session.get(LenderPackage, package.id).status == "failed"
    assert packages.request(world.session, world.ports, world.advisor, world.case.id).id != package.id


def test_an_erased_client_leaves_no_row_and_no_file_and_one_record_naming_no_one(world):
    made = _complete_case(world)
    package = packages.request(world.session, world.ports, world.advisor, world.case.id)
    packages.build(world.session, world.ports, package.id, world.brokerage.id)
    job = ExtractionJob(document_id=made[1], brokerage_id=world.brokerage.id, mode="first")
    world.session.add(job)
    world.session.flush()
    world.session.add(CreditReservation(brokerage_id=world.brokerage.id, job_id=job.id, pages=1, status="settled",
                                        pages_charged=1, expires_at=world.clock.now()))
    kept = world.document(owner=world.advisor)
    world.session.execute(Document.__table__.update().where(Document.id == kept)
                          .values(workspace_id=None, title="Note about Rahul Mustermann"))
    world.session.add(AuditEntry(document_id=kept, actor_id=world.client.id, action="shared",
                                 note="shared with client@example.test"))
    world.session.commit()
    client_id, case_id, admin_id = world.client.id, world.case.id, world.broker_admin.id
    world.ports.mail = FakeMail()
    for to in (world.client.email, world.advisor.email):
        world.ports.mail.send(Mail(to=to, subject="Your payslip", text="Dear Rahul Mustermann", html=""))

    with pytest.raises(erasure.NotAllowed):
        erasure.erase_client(world.session, world.ports, world.advisor, client_id)
    record = erasure.erase_client(world.session, world.ports, world.broker_admin, client_id)

    assert world.session.get(User, client_id) is None and world.session.get(Workspace, case_id) is None
    assert world.session.scalar(select(func.count()).select_from(Document).where(Document.id.in_(made))) == 0
    assert world.session.scalar(select(func.count()).select_from(DocumentVersion)) == 0
    assert [k for k in world.storage.objects if any(d in k for d in made) or "/packages/" in k] == []
    assert world.session.scalar(select(func.count()).select_from(CreditReservation)) == 1
    assert [m.to for m in world.ports.mail.sent] == [world.advisor.email]   # the outbox forgot hers
    assert world.session.get(Document, kept).title == f"Note about {erasure.ERASED}"
    audit = world.session.scalar(select(AuditEntry).where(AuditEntry.document_id == kept))
    assert (audit.actor_id, audit.note) == (None, f"shared with {erasure.ERASED}")
    assert (record.subject, record.reason, record.actor_id) == ("client", "request", admin_id)
    text = json.dumps(record.removed)
    assert "Mustermann" not in text and "client@example.test" not in text
    assert world.session.scalar(select(func.count()).select_from(ErasureRecord)) == 1


def test_erasing_one_client_of_a_shared_case_keeps_the_case_and_the_other_client_but_not_its_packages(world):
    partner = world._user("partner@example.test", "Priya Partner", "client", world.brokerage.id)
    world.session.add(WorkspaceMember(workspace_id=world.case.id, user_id=partner.id))
    world.session.execute(Workspace.__table__.update().where(Workspace.id == world.case.id)
                          .values(name="Rahul Mustermann and Priya Partner"))
    world.session.commit()
    made = _complete_case(world)
    partners = world.document(owner=partner)
    package = packages.request(world.session, world.ports, world.advisor, world.case.id)
    packages.build(world.session, world.ports, package.id, world.brokerage.id)
    case_id, partner_id = world.case.id, partner.id

    record = erasure.erase_client(world.session, world.ports, world.broker_admin, world.client.id)

    assert record.removed["packages"] == 1 and "cases" not in record.removed
    assert world.session.get(Workspace, case_id).name == f"{erasure.ERASED} and Priya Partner"
    assert world.session.get(User, partner_id) is not None and world.session.get(Document, partners) is not None
    assert [k for k in world.storage.objects if "/packages/" in k or any(d in k for d in made)] == []
    assert any(partners in k for k in world.storage.objects)


def test_a_client_whose_document_is_with_the_reader_is_not_erased_yet(world):
    made = _complete_case(world)
    world.session.execute(Document.__table__.update().where(Document.id == made[0]).values(status="EXTRACTING"))
    world.session.commit()
    with pytest.raises(erasure.BeingRead):
        erasure.erase_client(world.session, world.ports, world.broker_admin, world.client.id)
    assert world.session.get(User, world.client.id) is not None
    assert world.session.scalar(select(func.count()).select_from(ErasureRecord)) == 0
    assert any(made[0] in key for key in world.storage.objects)


def test_the_retention_sweep_erases_only_cases_closed_long_enough_ago(world):
    _complete_case(world)
    case_id = world.case.id
    assert erasure.close_case(world.session, world.ports, world.advisor, world.case.id)
    assert not erasure.close_case(world.session, world.ports, world.advisor, world.case.id)
    with pytest.raises(erasure.NotFound):
        erasure.close_case(world.session, world.ports, world.stranger, world.case.id)
    days = 30
    world.ports.settings["CASE_RETENTION_DAYS"] = days
    assert erasure.erase_due_cases(world.session, world.ports, world.clock.now() + timedelta(days=days - 1), 10) == 0
    assert erasure.erase_due_cases(world.session, world.ports, world.clock.now() + timedelta(days=days), 10) == 1
    assert world.session.get(Workspace, case_id) is None
    assert world.session.scalar(select(ErasureRecord.reason)) == "retention"
    assert world.session.scalar(select(func.count()).select_from(Document)
                                .where(Document.status == Status.VERIFIED.value)) == 0


def test_the_embedded_outbox_forgets_the_mails_written_to_an_erased_address(tmp_path):
    from leadflow.mail.files import FileMailer
    outbox = FileMailer(tmp_path, sender="LeadFlow <no-reply@example.test>")
    outbox.send(Mail(to="Client@Example.test", subject="Rejected", text="Dear Ms Mustermann", html="<p>x</p>"))
    outbox.send(Mail(to="advisor@example.test", subject="Digest", text="Cases", html="<p>x</p>"))

    assert outbox.forget("client@example.test") == 1
    left = [p.read_bytes() for p in tmp_path.glob("*.eml")]
    assert len(left) == 1 and b"advisor@example.test" in left[0] and b"Mustermann" not in left[0]
