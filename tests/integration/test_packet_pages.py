"""Packets on the pages (issue 40), on the live app (PostgreSQL, the extractor over HTTP, the worker):
the document page of a packet shows its pages drawn small and grouped by document; an advisor
corrects a boundary there and only the documents it touches are read again, a new version saying
why and who; a client may look but not correct, another brokerage sees nothing; an unsure split
waits in the review queue with its pages shown until a reviewer confirms it; the portal shows a
packet as one upload with its documents under it."""
import io
import re

import pytest
from PIL import Image
from pypdf import PdfReader, PdfWriter

from tests.corpus import SAMPLES
from tests.integration.lender_case import update_user
from tests.integration.web_client import post, signed_in
from tests.plugins.live import wait_until

pytestmark = pytest.mark.usefixtures("live")

SETTLED = {"VERIFIED", "REJECTED", "ACTION_REQUIRED"}
# Client A's own papers, one after another in one PDF: a payslip (page 1), a three-page tax
# assessment (pages 2-4) and a contract (page 5).
THREE = (("payslips/synthetic_payslip_A1_01.pdf", "payslip"),
         ("tax/synthetic_tax_assessment_A1_01.pdf", "tax_assessment"),
         ("employment-contracts/synthetic_employment_contract_A1_01.pdf", "employment_contract"))


def packet_pdf(files=THREE) -> bytes:
    writer = PdfWriter()
    for name, _ in files:
        for page in PdfReader(str(SAMPLES / name)).pages:
            writer.add_page(page)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def upload_packet(person, workspace_id) -> str:
    answer = person.api.post("/api/documents", files={"file": ("my-scans.pdf", packet_pdf())},
                             data={"split": "auto", "workspace_id": workspace_id})
    assert answer.status_code == 201, answer.text
    return answer.json()["id"]


def settled_children(person, packet_id, count, timeout=90.0) -> list[dict]:
    def settled():
        body = person.api.get(f"/api/documents/{packet_id}/children").json()
        found = [d for d in body.get("documents", []) if d["status"] in SETTLED and d["packet_id"] == packet_id]
        live = [d for d in found if d["rejection_code"] != "PACKET_PART_MERGED"]
        return live if len(live) == count and len(found) == len(body["documents"]) else None
    return wait_until(settled, timeout=timeout, message=f"{count} documents of {packet_id} to settle")


def test_the_packets_page_groups_its_pages_by_document_and_a_moved_boundary_redoes_only_the_two_it_touches(app, world):
    packet_id = upload_packet(world.client_a, world.workspace_a)
    children = settled_children(world.client_a, packet_id, 3)
    by_type = {d["document_type"] or d["kind"]: d for d in children}
    assert set(by_type) == {"payslip", "tax_assessment", "employment_contract"}

    advisor = signed_in(app, world.advisor_a)
    page = advisor.get(f"/documents/{packet_id}").get_data(as_text=True)
    groups = re.findall(r'<li class="part-group[^"]*" id="part-group-(\d)" data-part="\d" data-first="(\d)"\s+'
                        r'data-last="(\d)" data-type="([a-z_]*)"', page)
    assert groups == [("1", "1", "1", "payslip"), ("2", "2", "4", "tax_assessment"),
                      ("3", "5", "5", "employment_contract")]
    for child in children:   # each group holds its document's live row
        assert f'id="document-{child["id"]}"' in page
    assert page.count(f"/documents/{packet_id}/pages/") >= 2 * 5   # each page small, linked large

    # A page's picture: drawn once, kept, and the same for the document that holds the page.
    picture = advisor.get(f"/documents/{packet_id}/pages/2?size=small")
    assert picture.status_code == 200 and picture.content_type == "image/png"
    assert Image.open(io.BytesIO(picture.data)).width == 240
    storage = app.extensions["leadflow"].storage
    assert storage.head(f"brokerages/{world.brokerage_a}/documents/{packet_id}/pages/2-small.png") is not None
    statement = by_type["tax_assessment"]["id"]
    assert advisor.get(f"/documents/{statement}/pages/2?size=small").data == picture.data
    assert advisor.get(f"/documents/{statement}/pages/5?size=small").status_code == 404, "another document's page"
    assert advisor.get(f"/documents/{packet_id}/pages/6").status_code == 404
    assert advisor.get(f"/documents/{packet_id}/pages/1?size=huge").status_code == 400

    # The contract starts a page earlier (page 4): the tax assessment and the contract are read again.
    revision = int(re.search(r'data-revision="(\d+)"', page).group(1))
    before = {d["id"]: world.advisor_a.api.get(f"/api/documents/{d['id']}/versions").json() for d in children}
    answer = post(advisor, f"/documents/{packet_id}/split",
                  {"change": "move_boundary", "part": "3", "page": "4", "revision": str(revision)})
    assert answer.status_code == 200, answer.get_data(as_text=True)[:500]
    assert answer.headers.get("HX-Trigger") == "leadflow:document-changed"
    body = answer.get_data(as_text=True)
    assert 'data-first="4"' in body and "Changed." in body
    after = settled_children(world.client_a, packet_id, 3)
    pages = {d["id"]: (d["pages"]["first"], d["pages"]["last"]) for d in after}
    assert pages == {by_type["payslip"]["id"]: (1, 1), statement: (2, 3),
                     by_type["employment_contract"]["id"]: (4, 5)}
    for child in after:
        versions = world.advisor_a.api.get(f"/api/documents/{child['id']}/versions").json()
        added = [v for v in _content(versions) if v not in _content(before[child["id"]])]
        if child["id"] == by_type["payslip"]["id"]:
            assert added == [], "the payslip's pages did not change: it is not read again"
        else:
            assert [v["cause"] for v in added] == ["resplit"], child
            assert added[0]["actor_id"] == world.advisor_a.user_id
    history = advisor.get(f"/documents/{statement}/panels/history").get_data(as_text=True)
    assert "Pages or type corrected: read again" in history and "Advisor A" in history

    # The same form again: the revision it names has moved on; the split stays as it is.
    stale = post(advisor, f"/documents/{packet_id}/split",
                 {"change": "move_boundary", "part": "3", "page": "5", "revision": str(revision)})
    assert stale.status_code == 409 and "changed this upload" in stale.get_data(as_text=True)
    assert settled_children(world.client_a, packet_id, 3)[2]["pages"] == {"first": 4, "last": 5}


def test_bad_corrections_are_refused_in_words_and_change_nothing(app, world):
    packet_id = upload_packet(world.client_a, world.workspace_a)
    settled_children(world.client_a, packet_id, 3)
    advisor = signed_in(app, world.advisor_a)
    revision = world.advisor_a.api.get(f"/api/documents/{packet_id}").json()["packet"]["revision"]
    for form, status, words in (
            ({"change": "explode", "part": "1"}, 400, "Pick a correction."),
            ({"change": "move_boundary", "part": "2", "page": "9"}, 400, "A document cannot start on that page"),
            ({"change": "move_boundary", "part": "two", "page": "2"}, 400, None),
            ({"change": "change_type", "part": "1", "document_type": "love_letter"}, 400, "Pick a document type."),
            ({"change": "merge", "part": "3"}, 400, "There is no such document in this upload.")):
        answer = post(advisor, f"/documents/{packet_id}/split", form)
        assert answer.status_code == status, (form, answer.status_code)
        if words:
            assert words in answer.get_data(as_text=True), form
            assert answer.get_data(as_text=True).count('role="alert"') == 1, "told once, not on every row"
    # Without script the whole page comes back, the refusal where the split is.
    plain = post(advisor, f"/documents/{packet_id}/split", {"change": "move_boundary", "part": "2", "page": "9"},
                 htmx=False)
    assert plain.status_code == 400
    assert '<html lang="en">' in plain.get_data(as_text=True) and "A document cannot start on that page" in plain.get_data(as_text=True)
    assert world.advisor_a.api.get(f"/api/documents/{packet_id}").json()["packet"]["revision"] == revision
    # What exactly was wrong is said too, in the advisor's language; the API says it in English.
    update_user(app, world.advisor_a.user_id, language="de")
    german = post(signed_in(app, world.advisor_a), f"/documents/{packet_id}/split",
                  {"change": "move_boundary", "part": "2", "page": "9"}).get_data(as_text=True)
    assert "Auf dieser Seite kann keine Unterlage beginnen" in german and "Teil 2 kann auf einer Seite von" in german
    assert "Part 2 can start" not in german
    english = world.advisor_a.api.post(f"/api/documents/{packet_id}/split",
                                       json={"change": "move_boundary", "part": 2, "page": 9})
    assert english.status_code == 400 and english.json()["error"]["message"].startswith("Part 2 can start on a page")

    # A client sees their packet's page, and may not correct it; another brokerage sees nothing.
    client = signed_in(app, world.client_a)
    page = client.get(f"/documents/{packet_id}").get_data(as_text=True)
    assert 'id="packet-split"' in page and 'data-fix="merge"' not in page
    assert post(client, f"/documents/{packet_id}/split", {"change": "merge", "part": "1"}).status_code == 403
    stranger = signed_in(app, world.advisor_b)
    assert stranger.get(f"/documents/{packet_id}").status_code == 404
    assert stranger.get(f"/documents/{packet_id}/pages/1").status_code == 404
    assert post(stranger, f"/documents/{packet_id}/split", {"change": "merge", "part": "1"}).status_code == 404
    assert world.advisor_a.api.get(f"/api/documents/{packet_id}").json()["packet"]["revision"] == revision


def test_an_unsure_split_waits_in_the_review_queue_with_its_pages_until_a_reviewer_confirms_it(app, world):
    packet_id = upload_packet(world.client_a, world.workspace_a)
    settled_children(world.client_a, packet_id, 3)
    unsure_packet = make_unsure(app, world, packet_id)

    reviewer = signed_in(app, world.platform_admin)
    queue = reviewer.get("/review").get_data(as_text=True)
    row = re.search(rf'<tr id="document-{unsure_packet}".*?</tr>', queue, re.S).group(0)
    assert row.count(f"/documents/{unsure_packet}/pages/") == 5, "every page shown, grouped as proposed"
    assert 'class="proposal-part part-unsure"' in row and "Check the split" in row
    assert 'name="action" value="decide"' not in row, "a packet is not decided as one document"

    page = reviewer.get(f"/documents/{unsure_packet}").get_data(as_text=True)
    assert 'data-state="unsure"' in page and "Confirm the split" in page
    answer = post(reviewer, f"/documents/{unsure_packet}/split", {"change": "confirm"})
    assert answer.status_code == 200, answer.get_data(as_text=True)[:500]
    assert 'data-state="split"' in answer.get_data(as_text=True)
    settled_children(world.client_a, unsure_packet, 3)
    assert f'id="document-{unsure_packet}"' not in reviewer.get("/review").get_data(as_text=True)


def test_the_portal_shows_a_packet_as_one_upload_with_its_documents_under_it(app, world):
    packet_id = upload_packet(world.client_a, world.workspace_a)
    children = settled_children(world.client_a, packet_id, 3)
    client = signed_in(app, world.client_a)
    checklist = client.get("/portal/checklist").get_data(as_text=True)
    block = re.search(rf'<section class="item packet" id="packet-{packet_id}".*?</section>', checklist, re.S).group(0)
    assert "This file held 3 documents; each is checked on its own." in block
    for child in sorted(children, key=lambda d: d["pages"]["first"]):
        assert f'id="part-{child["id"]}" class="part" data-status="{child["status"]}"' in block
    assert f'id="document-{packet_id}"' not in checklist, "the packet is no row of its own"
    assert 'value="packet"' in client.get("/portal").get_data(as_text=True), "the upload form offers a packet"


def make_unsure(app, world, model_packet_id: str) -> str:
    """A second packet of the same file whose split waits for a person: as a split job's answer
    with an unsure part leaves it (ACTION_REQUIRED, PACKET_SPLIT_UNSURE, parts proposed)."""
    from leadflow.extensions import db
    from leadflow.models import Document, Packet, new_id
    from leadflow.services import transitions
    with app.app_context():
        model = db.session.get(Document, model_packet_id)
        packet_id = new_id()
        row = {column.name: getattr(model, column.key) for column in Document.__table__.columns}
        row.update(id=packet_id, title="more-scans.pdf", kind="packet", status="ACTION_REQUIRED",
                   rejection_code="PACKET_SPLIT_UNSURE", current_job_id=None, verified_at=None,
                   verification_notes=[{"code": "packet_unsure", "en": "Unsure where its documents begin.",
                                        "de": "Unsicher, wo seine Dokumente beginnen."}])
        transitions.create(db.session, row, actor_id=None, action="packet_unsure", note=None)
        db.session.flush()
        db.session.add(Packet(document_id=packet_id, brokerage_id=model.brokerage_id, state="unsure", revision=1,
                              parts=[{"first": 1, "last": 1, "document_type": "payslip", "confidence": 0.9,
                                      "boundary_confidence": 0.97, "sure": True, "decided": False},
                                     {"first": 2, "last": 4, "document_type": "tax_assessment", "confidence": 0.6,
                                      "boundary_confidence": 0.55, "sure": False, "decided": False},
                                     {"first": 5, "last": 5, "document_type": "employment_contract",
                                      "confidence": 0.9, "boundary_confidence": 0.55, "sure": False,
                                      "decided": False}]))
        db.session.commit()
        db.session.remove()
    return packet_id


def _content(versions) -> list[dict]:
    rows = versions.get("versions", versions) if isinstance(versions, dict) else versions
    return [v for v in rows if v.get("part", "content") == "content"]


def test_the_portals_form_without_script_uploads_a_packet_too(app, world):
    client = signed_in(app, world.client_a)
    answer = post(client, "/portal/upload", {"file": (io.BytesIO(packet_pdf()), "scans.pdf"), "kind": "packet",
                                            "workspace_id": str(world.workspace_a)}, htmx=False)
    assert answer.status_code == 303
    packets = [d for d in world.client_a.api.get("/api/documents").json()["documents"] if d["kind"] == "packet"]
    assert len(packets) == 1 and packets[0]["title"] == "scans.pdf"
    settled_children(world.client_a, packets[0]["id"], 3)
    page = signed_in(app, world.advisor_a).get(f"/documents/{packets[0]['id']}").get_data(as_text=True)
    assert "Several documents in one file" in page and ">Packet<" not in page
