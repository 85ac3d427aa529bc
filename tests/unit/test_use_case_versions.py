"""An advisor's work on a document's data with fakes: corrections, revert, reprocess and
customise; each a new version with its cause, the verdict judged again and guarded."""
import json

import pytest
from sqlalchemy import select, update

from leadflow.domain.events import DocumentStatusChanged
from leadflow.domain.lifecycle import JobStatus, Status
from leadflow.errors import Conflict, Forbidden, InvalidInput, NotFound
from leadflow.models import Document, DocumentVersion
from leadflow.services import version_store, versions
from leadflow.storage.base import ObjectMissing
from tests.unit.fakes import PAYSLIP, events, world  # noqa: F401  (fixtures)


def chain(world, document_id: str, part: str = "content") -> list[tuple[int, str]]:
    return [(v.number, v.cause) for v in world.session.scalars(
        select(DocumentVersion).where(DocumentVersion.document_id == document_id, DocumentVersion.part == part)
        .order_by(DocumentVersion.number))]


def test_a_correction_is_a_new_version_read_by_a_person(world):
    document_id = world.extracted()
    versions.correct(world.session, world.ports, world.advisor, document_id, {"net": "3400.00"})
    assert chain(world, document_id) == [(1, "generated"), (2, "corrected")]
    version, body = versions.version_body(world.session, world.ports, world.get(document_id), "content")
    assert version.number == 2 and version.actor_id == world.advisor.id
    assert body["fields"]["net"] == "3400.00" and body["read_by_person"] == ["net"]
    assert world.audit(document_id) == ["corrected"]


def test_a_correction_that_breaks_a_rule_rejects_the_document(world, events):
    document_id = world.extracted()
    versions.correct(world.session, world.ports, world.advisor, document_id, {"period": "2019-01"})
    document = world.get(document_id)
    assert document.status == Status.REJECTED and document.rejection_code == "VERIFICATION_FAILED"
    assert [e.status for e in events.of(DocumentStatusChanged)] == ["REJECTED"]


def test_a_correction_that_mends_a_rejected_document_verifies_it(world):
    document_id = world.extracted(fields={**PAYSLIP, "period": "2019-01"}, status=Status.REJECTED)
    versions.correct(world.session, world.ports, world.advisor, document_id, {"period": "2026-10"})
    assert world.get(document_id).status == Status.VERIFIED


def test_a_correction_that_keeps_the_verdict_still_renews_its_notes_and_tells_open_pages(world, events):
    document_id = world.extracted()
    versions.correct(world.session, world.ports, world.advisor, document_id, {"net": "3394.70"})
    assert world.get(document_id).status == Status.VERIFIED
    assert [e.status for e in events.of(DocumentStatusChanged)] == ["VERIFIED"]


def test_revert_goes_back_to_the_first_extraction_as_new_versions(world):
    document_id = world.extracted()
    versions.correct(world.session, world.ports, world.advisor, document_id, {"period": "2019-01"})
    versions.revert(world.session, world.ports, world.advisor, document_id)
    assert chain(world, document_id) == [(1, "generated"), (2, "corrected"), (3, "reverted")]
    assert chain(world, document_id, "schema") == [(1, "generated"), (2, "reverted")]
    assert world.get(document_id).status == Status.VERIFIED


def test_nothing_to_correct_or_revert_before_extraction(world):
    document_id = world.document(status=Status.REJECTED)
    with pytest.raises(Conflict):
        versions.correct(world.session, world.ports, world.advisor, document_id, {"net": "1"})
    with pytest.raises(Conflict):
        versions.revert(world.session, world.ports, world.advisor, document_id)


@pytest.mark.parametrize("changes", [None, {}, [("net", "1")], "net=1", {f"f{i}": i for i in range(101)}])
def test_corrections_that_are_not_a_small_object_of_fields_are_refused(world, changes):
    document_id = world.extracted()
    with pytest.raises(InvalidInput):
        versions.correct(world.session, world.ports, world.advisor, document_id, changes)
    assert chain(world, document_id) == [(1, "generated")]


def test_a_client_may_not_change_the_data(world):
    document_id = world.extracted()
    with pytest.raises(Forbidden):
        versions.correct(world.session, world.ports, world.client, document_id, {"net": "1"})


def test_another_brokerage_does_not_see_the_document_at_all(world):
    document_id = world.extracted()
    with pytest.raises(NotFound):
        versions.correct(world.session, world.ports, world.stranger, document_id, {"net": "1"})


def test_a_document_still_in_the_pipeline_cannot_be_changed(world):
    document_id = world.document(status=Status.EXTRACTING)
    with pytest.raises(Conflict):
        versions.reprocess(world.session, world.ports, world.advisor, document_id)


def test_a_verdict_judged_on_a_status_that_changed_meanwhile_is_refused_not_lost(world, monkeypatch):
    document_id = world.extracted()
    judge = versions.verify_type

    def reprocess_starts_meanwhile(*args, **kwargs):
        # Another person's reprocess moves the document while this correction is being judged.
        world.session.execute(update(Document).where(Document.id == document_id)
                              .values(status=Status.EXTRACTING.value))
        return judge(*args, **kwargs)

    monkeypatch.setattr(versions, "verify_type", reprocess_starts_meanwhile)
    with pytest.raises(Conflict):
        versions.correct(world.session, world.ports, world.advisor, document_id, {"net": "3394.70"})
    assert chain(world, document_id) == [(1, "generated")], "the refused correction left no version"


def test_reprocess_submits_a_rerun_that_remembers_where_to_return(world):
    document_id = world.extracted()
    versions.reprocess(world.session, world.ports, world.advisor, document_id)
    [submitted] = world.extraction.submitted
    job = world.job(submitted["job_id"])
    assert (submitted["mode"], job.resume_status, job.requested_by_id) == ("reprocess", "VERIFIED", world.advisor.id)
    assert world.get(document_id).status == Status.EXTRACTING


def test_customise_asks_for_the_named_fields_and_keeps_the_verdict(world):
    document_id = world.extracted()
    notes = [{"code": "ok", "en": "Looks right.", "de": "Sieht richtig aus."}]
    world.session.execute(update(Document).where(Document.id == document_id).values(verification_notes=notes))
    world.session.commit()
    versions.customise(world.session, world.ports, world.advisor, document_id, {"fields": ["net", "gross"]})
    assert world.extraction.submitted[-1]["output_spec"] == {"fields": ["net", "gross"]}
    document = world.get(document_id)
    assert (document.status, document.verification_notes) == (Status.EXTRACTING, notes)


@pytest.mark.parametrize("spec", [None, {}, {"fields": []}, {"fields": "net"}, {"fields": [1]}, {"fields": [""]}])
def test_a_customisation_that_names_no_fields_is_refused(world, spec):
    document_id = world.extracted()
    with pytest.raises(InvalidInput):
        versions.customise(world.session, world.ports, world.advisor, document_id, spec)
    assert world.extraction.submitted == []


def test_a_rerun_while_the_reader_is_down_changes_nothing_and_says_so(world):
    from leadflow.errors import Unavailable
    document_id = world.extracted()
    world.extraction.down = True
    with pytest.raises(Unavailable):
        versions.reprocess(world.session, world.ports, world.advisor, document_id)
    document = world.get(document_id)
    assert document.status == Status.VERIFIED
    assert world.job(document.current_job_id).status == JobStatus.FAILED


def test_a_rerun_with_no_credits_is_refused_at_once(world):
    document_id = world.extracted()
    world.wallet().balance = 0
    world.session.commit()
    with pytest.raises(Conflict):
        versions.reprocess(world.session, world.ports, world.advisor, document_id)
    assert world.get(document_id).status == Status.VERIFIED


def test_a_version_that_does_not_exist_is_not_found(world):
    document_id = world.extracted()
    with pytest.raises(NotFound):
        versions.version_body(world.session, world.ports, world.get(document_id), "content", 7)


def test_a_versions_body_is_read_from_storage(world):
    document_id = world.extracted()
    _, body = versions.version_body(world.session, world.ports, world.get(document_id), "schema")
    assert body == {"type": "payslip"}
    assert json.loads(world.storage.get(_.storage_key))["parts"]["schema"] == body


def test_a_version_stored_as_two_objects_before_envelopes_still_reads_corrects_and_reverts(world):
    document_id = world.extracted(two_objects=True)
    document = world.get(document_id)
    assert versions.version_body(world.session, world.ports, document, "content")[1] == {"fields": PAYSLIP}
    assert versions.version_body(world.session, world.ports, document, "schema")[1] == {"type": "payslip"}
    versions.correct(world.session, world.ports, world.advisor, document_id, {"net": "3400.00"})
    corrected, body = versions.version_body(world.session, world.ports, world.get(document_id), "content")
    assert body["fields"]["net"] == "3400.00" and "/versions/" in corrected.storage_key
    versions.revert(world.session, world.ports, world.advisor, document_id)
    document = world.get(document_id)
    assert versions.version_body(world.session, world.ports, document, "content")[1] == {"fields": PAYSLIP}
    assert versions.version_body(world.session, world.ports, document, "schema")[1] == {"type": "payslip"}


def test_a_correction_is_one_object_of_its_one_part(world):
    document_id = world.extracted()
    before = set(world.storage.objects)
    versions.correct(world.session, world.ports, world.advisor, document_id, {"net": "3400.00"})
    [written] = set(world.storage.objects) - before
    stored = json.loads(world.storage.get(written))
    assert stored["format"] == "leadflow.version/1" and list(stored["parts"]) == ["content"]
    # A schema read of a correction's object finds no schema there, rather than its content.
    with pytest.raises(ObjectMissing):
        version_store.read(world.storage, written, "schema")
