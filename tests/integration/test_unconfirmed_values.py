"""A rejection rests only on a confirmed value, through the whole path: upload, worker, submission, a
signed callback carrying the reader's result, the verdict. A statement whose old period nothing
confirms waits for a person, who reads the period off the file; one whose bookings confirm it is
rejected as before.

The extraction service is a double that holds its answer, so each test decides what was read.
"""
import pytest

from tests.corpus import SAMPLES
from tests.integration.test_exactly_once import post_callback
from tests.integration.test_failure_matrix import extraction_service
from tests.integration.test_unreadable_fields import expected_fields
from tests.plugins.doubles import HoldingService

STATEMENT = "bank-statements/synthetic_bank_statement_A1_01.pdf"
SETTLED = {"VERIFIED", "REJECTED", "ACTION_REQUIRED"}
# The header misread as May 2026 (a statement number, "Nr. 5/2026"); the sample is pinned to 2026-11-15.
MISREAD = {"period_start": "2026-05-01", "period_end": "2026-05-31"}


def statement_result(job_id: str, fields: dict, confirmed: dict | None) -> dict:
    content = {"text_chars": 900, "fields": fields,
               "field_confidence": {name: 0.0 if value is None else 0.93 for name, value in fields.items()}}
    if confirmed is not None:
        content["confirmed"] = confirmed
    return {"type": "job.completed", "job_id": job_id,
            "data": {"pages": 1, "document_type": "bank_statement", "confidence": 0.95, "content": content,
                     "schema": {"type": "object"}}}


def answered_with(world, app, live, fields: dict, confirmed: dict | None) -> dict:
    """Upload the statement as the client and answer its job with this reading; the document after."""
    holding = HoldingService()
    with extraction_service(app, holding):
        created = world.client_a.api.upload(SAMPLES / STATEMENT, kind="bank_statement",
                                            workspace_id=world.workspace_a)
        assert created.status_code == 201, created.text
        document_id = created.json()["id"]
        world.client_a.api.wait_for_status(document_id, "EXTRACTING")
        live.drain()
    job_id = holding.jobs[-1]["job_id"]
    assert post_callback(world, app, statement_result(job_id, fields, confirmed)).status_code == 202
    live.drain()
    return world.client_a.api.wait_for_status(document_id, SETTLED)


@pytest.mark.parametrize("confirmed", [{"iban": "check_digits"}, None], ids=["period unconfirmed", "no confirmations"])
def test_a_statement_whose_old_period_is_not_confirmed_waits_for_a_person_and_is_not_rejected(
        world, app, live, confirmed):
    fields = {**expected_fields(STATEMENT), **MISREAD, "bookings": []}
    document = answered_with(world, app, live, fields, confirmed)
    assert document["status"] == "ACTION_REQUIRED" and document["rejection_code"] is None
    note, = document["verification_notes"]
    assert note["code"] == "bank_statement_period_unconfirmed" and note["fields"] == ["period_end"]
    assert "the header reads 1 May 2026 to 31 May 2026, and no booking dates confirm it" in note["en"]
    assert "im Kopf steht 01.05.2026 bis 31.05.2026, und keine Buchungsdaten bestätigen ihn" in note["de"]

    # The reviewer reads the period off the file; what a person typed is confirmed, and judged.
    decided = world.platform_admin.api.post(f"/api/documents/{document['id']}/decision",
                                            json={"fields": {"period_end": "31.10.2026"}})
    assert decided.status_code == 200, decided.text
    assert decided.json()["status"] == "VERIFIED"


def test_recent_bookings_overrule_a_misread_header_and_the_statement_is_verified(world, app, live):
    fields = {**expected_fields(STATEMENT), **MISREAD,
              "bookings": [{"date": "2026-10-02", "counterparty": "Stadtwerke", "purpose": "Lastschrift",
                            "amount": "-84.00"},
                           {"date": "2026-10-30", "counterparty": "Beispiel GmbH", "purpose": "Lohn/Gehalt",
                            "amount": "3394.72"}]}
    document = answered_with(world, app, live, fields, {"iban": "check_digits"})
    assert document["status"] == "VERIFIED", document["verification_notes"]


def test_a_statement_whose_bookings_confirm_its_old_period_is_rejected(world, app, live):
    fields = {**expected_fields(STATEMENT), **MISREAD,
              "bookings": [{"date": "2026-05-04", "counterparty": "Stadtwerke", "purpose": "Lastschrift",
                            "amount": "-84.00"}]}
    document = answered_with(world, app, live, fields,
                             {"iban": "check_digits", "period_start": "bookings", "period_end": "bookings"})
    assert document["status"] == "REJECTED" and document["rejection_code"] == "VERIFICATION_FAILED"
    assert [n["code"] for n in document["verification_notes"]] == ["bank_statement_too_old"]
