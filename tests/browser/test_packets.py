"""Packets in headless Chromium (issue 40): a client uploads one file holding three documents on the
portal and watches it become one upload with its documents under it, each reaching its verdict live;
an advisor moves a boundary on the packet's page, among its pages drawn small, and the two documents
it touches are read again before their eyes."""
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.integration.test_packet_pages import packet_pdf, settled_children, upload_packet

pytestmark = pytest.mark.browser

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SETTLE_TIMEOUT_MS = 60_000  # a split, then three documents through the worker and the extractor
MARKER = "set before the upload; a reload would wipe it"
SETTLED = ("VERIFIED", "REJECTED", "ACTION_REQUIRED")
SETTLED_STATUS = re.compile("|".join(SETTLED))
# What the packet's block and its documents' lines showed, in order (lines are replaced by pushes
# and refreshes, so the test reads this record rather than the page at one moment).
RECORD_PACKETS = """() => {
    window.__packets = {}; window.__parts = {};
    const note = (log, key, value) => { const seen = (log[key] ||= []); if (seen.at(-1) !== value) seen.push(value); };
    const record = () => {
        document.querySelectorAll("section.packet[id^='packet-']").forEach(p => note(window.__packets, p.id, p.dataset.status));
        document.querySelectorAll("li.part[id^='part-']").forEach(p => note(window.__parts, p.id, p.dataset.status));
    };
    record();
    new MutationObserver(record).observe(document.querySelector(".portal"), {subtree: true, childList: true,
        attributes: true, attributeFilter: ["data-status"]});
}"""


# The statuses each named document's row showed on a staff page, in order.
RECORD_ROWS = """ids => {
    window.__rows = {};
    const record = () => ids.forEach(id => {
        const row = document.getElementById("document-" + id);
        const seen = (window.__rows["document-" + id] ||= []);
        if (row && seen.at(-1) !== row.dataset.status) seen.push(row.dataset.status);
    });
    record();
    new MutationObserver(record).observe(document.body, {subtree: true, childList: true, attributes: true,
                                                         attributeFilter: ["data-status"]});
}"""


def test_a_client_uploads_a_packet_and_sees_its_documents_reach_their_verdicts_live(sign_in, world, tmp_path):
    scans = tmp_path / "kitchen-table-scans.pdf"
    scans.write_bytes(packet_pdf())
    portal = sign_in(world.client_a)
    portal.set_viewport_size({"width": 1100, "height": 1000})
    portal.evaluate("marker => { window.__marker = marker }", MARKER)
    portal.evaluate(RECORD_PACKETS)

    portal.set_input_files("#file", scans)
    portal.select_option("#kind", "packet")
    portal.get_by_role("button", name="Upload", exact=True).click()
    expect(portal.locator("#upload-result")).to_have_text("Uploaded 1 file. We are checking it now.")

    packet = portal.locator("section.packet")
    expect(packet).to_have_count(1, timeout=SETTLE_TIMEOUT_MS)
    packet_id = packet.get_attribute("id").removeprefix("packet-")
    expect(packet).to_have_attribute("data-status", "VERIFIED", timeout=SETTLE_TIMEOUT_MS)
    parts = packet.locator("li.part")
    expect(parts).to_have_count(3, timeout=SETTLE_TIMEOUT_MS)
    for index in range(3):
        expect(parts.nth(index)).to_have_attribute("data-status", "VERIFIED", timeout=SETTLE_TIMEOUT_MS)
    expect(packet.get_by_test_id("packet-state")).to_have_text(
        "This file held 3 documents; each is checked on its own.")
    expect(parts.locator(".part-name")).to_have_text(["Payslip", "Tax assessment", "Employment contract"])
    expect(parts.locator(".part-pages")).to_have_text(["page 1", "pages 2 to 4", "page 5"])

    # Each document also fills its own place in the checklist, and the packet is no row of its own.
    children = {d["document_type"]: d["id"] for d in settled_children(world.client_a, packet_id, 3)}
    for item, document_type in (("payslips", "payslip"), ("tax_assessment", "tax_assessment"),
                                ("employment_contract", "employment_contract")):
        expect(portal.locator(f"#item-{item} #document-{children[document_type]}")).to_have_attribute(
            "data-status", "VERIFIED")
    expect(portal.locator("#item-employment_contract")).to_have_attribute("data-state", "done")
    expect(portal.locator(f"#document-{packet_id}")).to_have_count(0)
    expect(portal.locator("li.upload")).to_have_count(0)   # the upload's line gave way to the packet

    # Seen on the way, with no reload: the packet being read, then split; each document settling.
    packets = portal.evaluate("() => window.__packets")[f"packet-{packet_id}"]
    assert packets[-1] == "VERIFIED" and len(packets) > 1 and packets[0] not in SETTLED, packets
    record = portal.evaluate("() => window.__parts")
    assert {f"part-{i}" for i in children.values()} <= set(record)
    assert all(states[-1] == "VERIFIED" for states in record.values()), record
    assert portal.evaluate("() => window.__marker") == MARKER, "the page was reloaded"
    packet.evaluate("packet => packet.scrollIntoView({block: 'center'})")
    portal.screenshot(path=SCREENSHOTS / "packet_portal.png", full_page=False)


def test_an_advisor_moves_a_boundary_on_the_packets_page_and_only_the_two_documents_it_touches_are_read_again(
        sign_in, world):
    packet_id = upload_packet(world.client_a, world.workspace_a)
    children = {d["document_type"]: d["id"] for d in settled_children(world.client_a, packet_id, 3)}
    page = sign_in(world.advisor_a)
    page.set_viewport_size({"width": 1280, "height": 1100})
    page.goto(f"/documents/{packet_id}")
    expect(page.locator("#connection")).to_have_text("Live")
    page.evaluate("marker => { window.__marker = marker }", MARKER)

    groups = page.locator("li.part-group")
    expect(groups).to_have_count(3)
    expect(groups.get_by_test_id("part-type")).to_have_text(["Payslip", "Tax assessment", "Employment contract"])
    # Every page drawn, each in its document's group.
    for number, pages in ((1, [1]), (2, [2, 3, 4]), (3, [5])):
        thumbs = page.locator(f"#part-group-{number} figure.thumb")
        expect(thumbs).to_have_count(len(pages))
        for index, page_number in enumerate(pages):
            expect(thumbs.nth(index)).to_have_attribute("data-page", str(page_number))
    page.wait_for_function("() => [...document.querySelectorAll('figure.thumb img')].every(i => i.complete && i.naturalWidth > 0)")
    versions_before = {i: _causes(world, i) for i in children.values()}

    tax, contract = children["tax_assessment"], children["employment_contract"]
    page.evaluate(RECORD_ROWS, [tax, contract])
    # Say the contract's first page was taken for the tax assessment's last: it starts at page 4.
    third = page.locator("#part-group-3")
    third.get_by_label("Starts at page").select_option("4")
    third.get_by_role("button", name="Move the boundary").click()
    expect(page.locator("#packet-split [role=status]")).to_contain_text("Changed.")
    expect(page.locator("#part-group-3")).to_have_attribute("data-first", "4")
    expect(page.locator("#part-group-2")).to_have_attribute("data-last", "3")
    expect(page.locator("#part-group-2 figure.thumb")).to_have_count(2)
    expect(page.locator("#part-group-3 figure.thumb")).to_have_count(2)

    # The two documents it touches are read again, live on this page; the payslip keeps its verdict.
    for document_id in (tax, contract):
        expect(page.locator(f"#document-{document_id}")).to_have_attribute(
            "data-status", SETTLED_STATUS, timeout=SETTLE_TIMEOUT_MS)
    settled_children(world.client_a, packet_id, 3)
    assert _causes(world, children["payslip"]) == versions_before[children["payslip"]]
    for document_id in (tax, contract):
        assert _causes(world, document_id) == versions_before[document_id] + ["resplit"]
    seen = page.evaluate("() => window.__rows")
    for document_id in (tax, contract):   # pushed to this page as they were read again
        assert any(status not in SETTLED for status in seen[f"document-{document_id}"]), seen
    assert page.evaluate("() => window.__marker") == MARKER, "the page was reloaded"
    page.locator("#packet-split").evaluate("split => split.scrollIntoView({block: 'start'})")
    page.screenshot(path=SCREENSHOTS / "packet_boundary.png", full_page=False)


def _causes(world, document_id) -> list[str]:
    versions = world.advisor_a.api.get(f"/api/documents/{document_id}/versions").json()["versions"]
    return [v["cause"] for v in versions if v["part"] == "content"]

