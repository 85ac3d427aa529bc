"""Every page in both languages: words, never an internal code, and every date in the page's
language's one format (6 Dec 2026 in English, 06.12.2026 in German), for the client, an advisor,
a brokerage admin and a platform admin, on a case with a document in every status."""
import html
import json
import re
from datetime import date, timedelta
from functools import lru_cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from tests.integration.lender_case import seed_complete_case, update_user
from tests.integration.web_client import signed_in
from tests.plugins.live import TODAY

UPPER_CODE = re.compile(r"\b[A-Z][A-Z0-9]*(_[A-Z0-9]+)+\b")
LOWER_CODE = re.compile(r"\b[a-z][a-z0-9]*(_[a-z0-9]+)+\b")
MONTH_WORDS = (r"January|February|March|April|May|June|July|August|September|October|November|December|"
               r"Januar|Februar|März|Juni|Juli|Oktober|Dezember|"
               r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec|Mär|Okt|Dez")
# Anything that looks like a date, in any of the formats a page could show.
DATE_LIKE = re.compile(
    r"\b\d{4}-\d{2}-\d{2}(?:T[\d:.]+Z?)?"
    r"|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b"
    r"|\b\d{1,2}\.?\s+(?:" + MONTH_WORDS + r")\.?,?\s+\d{4}\b"
    r"|\b(?:" + MONTH_WORDS + r")\.?\s+\d{1,2},\s+\d{4}\b")
# ... and a month: 08/2026 in German, Aug 2026 in English; never as machines write it (2026-08).
MONTH_LIKE = re.compile(r"(?<![\d-])\d{4}-\d{2}(?![\d-])|\b\d{1,2}/\d{4}\b")
MONTH_FORMAT = {"de": re.compile(r"\d{2}/\d{4}"), "en": re.compile(r"(?!)")}
FORMAT = {"de": re.compile(r"\d{2}\.\d{2}\.\d{4}"),
          "en": re.compile(r"\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sept|Oct|Nov|Dec) \d{4}")}
INVISIBLE = re.compile(r"<(script|style)\b.*?</\1>", re.S | re.I)
TEXTAREA = re.compile(r"<textarea\b[^>]*>(.*?)</textarea>", re.S | re.I)
TEXT_INPUT_VALUE = re.compile(r'<input\b(?=[^>]*\btype="text")[^>]*\bvalue="([^"]*)"', re.I)
TAG = re.compile(r"<[^>]+>")
# Words a reader meets outside an element's text: a label for a screen reader, a hint in a box, a
# picture's words, a question before an action.
SPOKEN_ATTRIBUTES = re.compile(r'\b(?:aria-label|placeholder|alt|title|hx-confirm)="([^"]*)"', re.I)
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]|\{[a-z_]*\}|%[sd]")
CATALOG = Path(__file__).resolve().parents[2] / "translations" / "de" / "LC_MESSAGES" / "messages.po"

# Documents beside the complete case's VERIFIED ones: (title, status, rejection code, notes).
FILE_NAMES = ("contract-copy.pdf",)
EXTRA = (
    ("Expired passport", "REJECTED", "VERIFICATION_FAILED",
     [{"code": "expired", "en": "This passport expired on 15 April 2012.", "de": "Dieser Pass ist am 15.04.2012 abgelaufen."}]),
    ("Payslip the reader failed on", "ACTION_REQUIRED", "SYSTEM_RETRIES_EXHAUSTED",
     [{"code": "system_failure", "en": "Still being checked: our team is looking at this document.",
       "de": "Noch in Prüfung: unser Team sieht sich dieses Dokument an."}]),
    ("Payslip with an unread month", "ACTION_REQUIRED", None,
     [{"code": "fields_unreadable", "en": "We could not read the pay month on this payslip; a specialist will check it.",
       "de": "Wir konnten den Abrechnungsmonat nicht lesen; eine Fachkraft prüft das.", "fields": ["period"]}]),
    ("Scan of something", "ACTION_REQUIRED", None,
     [{"code": "type_unclear", "en": "We could not tell what this document is; a specialist will check it.",
       "de": "Wir konnten nicht erkennen, was für ein Dokument das ist; eine Fachkraft prüft das."}]),
    ("Reviewer's rejection", "REJECTED", "REJECTED_BY_REVIEWER",
     [{"code": "reviewer_rejected", "en": "Not the applicant's payslip.", "de": "Not the applicant's payslip."}]),
    ("Waiting statement", "PENDING", None,
     [{"code": "waiting_for_credits", "en": "Waiting for extraction credits: your brokerage has been told.",
       "de": "Wartet auf Guthaben: Ihr Maklerbüro ist informiert."}]),
    ("A code from tomorrow", "REJECTED", "SOMETHING_NEW_ENTIRELY",
     [{"code": "new_rule", "en": "Checked on 2026-11-01 and refused.", "de": "Am 2026-11-01 geprüft und abgelehnt."}]),
)
# What a person wrote down is theirs: the history's free text keeps its words, but not a code.
AUDIT = (("uploaded", None, "PENDING", "contract-copy.pdf, 1234 bytes"),
         ("extraction_failed", "EXTRACTING", "PENDING", "job 7f: internal_error: reader crashed"),
         ("system_retries_spent", "PENDING", "ACTION_REQUIRED", "retry after SYSTEM_EXTRACTION_FAILED"),
         ("type_decided", None, None, "decided: bank_statement"),
         ("a_brand_new_action", None, None, None))


@pytest.fixture
def case(app, world):
    """Brokerage a's case: the complete case (VERIFIED, with read dates), one document in every
    other status with codes of every kind, a second version with a changed date, a ready lender
    package, an open reservation and a planned payout; staff and client in `language`."""
    from leadflow.billing import service as billing
    from leadflow.extensions import db
    from leadflow.models import (Applicant, AuditEntry, CallbackDelivery, Document, DocumentVersion, ExtractionJob, LenderPackage,
                                 Workspace, new_id)
    made = seed_complete_case(app, world.brokerage_a, world.workspace_a, world.client_a.user_id)
    storage = app.extensions["leadflow"].storage
    ids = {}
    with app.app_context():
        for n, (title, status, code, notes) in enumerate(EXTRA):
            at = TODAY - timedelta(hours=n + 1)
            document_id = new_id()
            db.session.add(Document(id=document_id, brokerage_id=world.brokerage_a, owner_id=world.client_a.user_id,
                                    workspace_id=world.workspace_a, title=title, kind="payslip",
                                    document_type="payslip" if "Payslip" in title else None, status=status,
                                    rejection_code=code, verification_notes=notes, filename=FILE_NAMES[0],
                                    content_type="application/pdf", size_bytes=1234,
                                    storage_key=f"brokerages/{world.brokerage_a}/documents/{document_id}/original/x.pdf",
                                    created_at=at, updated_at=at, status_changed_at=at))
            db.session.flush()
            for action, source, target, note in AUDIT:
                db.session.add(AuditEntry(document_id=document_id, action=action, from_status=source, to_status=target,
                                          note=note, created_at=at))
            db.session.add(CallbackDelivery(id=new_id(), job_id="7f", document_id=document_id, event_type="job.failed",
                                            payload={"data": {"error": {"code": "internal_error", "message": "boom"}}},
                                            received_at=at, processed_at=at, outcome="applied"))
            ids[status + (code or notes[0]["code"])] = document_id
        # A document read twice: a field value and a date in a list change between the versions.
        statement = next(d for d in made if d["type"] == "bank_statement")
        fields = {**statement["fields"], "period_end": "2026-08-30", "issued": "15 April 2012",
                  "bookings": [{"date": "2026-08-03", "amount": "12.00"}]}
        key = f"brokerages/{world.brokerage_a}/documents/{statement['id']}/content/v2-corrected.json"
        storage.put(key, json.dumps({"fields": fields}).encode(), "application/json")
        db.session.add(DocumentVersion(document_id=statement["id"], part="content", number=2, cause="corrected",
                                       storage_key=key, created_at=TODAY))
        db.session.add(LenderPackage(brokerage_id=world.brokerage_a, workspace_id=world.workspace_a, status="ready",
                                     done_steps=3, total_steps=3, storage_key="packages/x.zip", size_bytes=2048,
                                     created_at=TODAY, finished_at=TODAY))
        packets = _packets(db.session, world, storage)
        db.session.get(Workspace, world.workspace_a).planned_payout_date = date(2027, 3, 6)
        db.session.add(Applicant(brokerage_id=world.brokerage_a, workspace_id=world.workspace_a, role="co_applicant",
                                 name="Amira Vorlage", date_of_birth=date(1990, 4, 15), citizenship="IN"))
        closed = Workspace(brokerage_id=world.brokerage_a, name="An older case", created_at=TODAY - timedelta(days=90),
                           closed_at=TODAY - timedelta(days=2))
        db.session.add(closed)
        db.session.flush()
        closed_id = closed.id
        job = ExtractionJob(document_id=ids["PENDINGwaiting_for_credits"], brokerage_id=world.brokerage_a, mode="first",
                            created_at=TODAY)
        db.session.add(job)
        db.session.flush()
        billing.reserve(db.session, world.brokerage_a, job.id, 2, now=TODAY)
        db.session.commit()
        db.session.remove()
    return {"verified": [d["id"] for d in made], "others": ids, "statement": statement["id"], "closed": closed_id,
            "packets": packets,
            "files": [d["path"].name for d in made] + list(FILE_NAMES) + [title for title, *_ in EXTRA]
            + list(PACKET_TITLES)}


# Packets (issue 40): one split into two documents (and one whose pages went to the other), and one
# whose split waits for a person.
PACKET_TITLES = ("weekend-scans.pdf", "weekend-scans.pdf [1]", "weekend-scans.pdf [2-3]", "weekend-scans.pdf [2]",
                 "more-scans.pdf")
PACKET_NOTES = {
    "packet_split": {"en": "This upload held 2 documents; each is checked on its own.",
                     "de": "Diese Datei enthielt 2 Unterlagen; jede wird einzeln geprüft."},
    "packet_unsure": {"en": "This upload holds several documents, and where one ends is unsure.",
                      "de": "Diese Datei enthält mehrere Unterlagen, und wo eine endet, ist unsicher."},
    "packet_part_merged": {"en": "These pages belong to another document of the same upload.",
                           "de": "Diese Seiten gehören zu einer anderen Unterlage derselben Datei."},
}


def _packets(session, world, storage) -> list[str]:
    """A split packet (a verified payslip, a statement being checked, a retired part) and an unsure one."""
    from leadflow.models import AuditEntry, Document, DocumentVersion, Packet, new_id
    ids = [new_id() for _ in range(5)]
    split, payslip, statement, retired, unsure = ids
    at = TODAY - timedelta(hours=12)

    def document(document_id, title, status, kind, **extra):
        notes = [{"code": code, **PACKET_NOTES[code]} for code in extra.pop("notes", [])]
        session.add(Document(id=document_id, brokerage_id=world.brokerage_a, owner_id=world.client_a.user_id,
                             workspace_id=world.workspace_a, title=title, kind=kind, status=status,
                             verification_notes=notes, filename=PACKET_TITLES[0], content_type="application/pdf",
                             size_bytes=4321, storage_key=f"brokerages/{world.brokerage_a}/documents/{split}/original/x.pdf",
                             created_at=at, updated_at=at, status_changed_at=at, **extra))
        session.flush()

    document(split, PACKET_TITLES[0], "VERIFIED", "packet", page_count=3, notes=["packet_split"])
    document(payslip, PACKET_TITLES[1], "VERIFIED", "payslip", document_type="payslip", packet_id=split,
             part_number=1, first_page=1, last_page=1, page_count=1)
    document(statement, PACKET_TITLES[2], "ACTION_REQUIRED", "bank_statement", packet_id=split, part_number=3,
             first_page=2, last_page=3, page_count=2)
    document(retired, PACKET_TITLES[3], "REJECTED", "bank_statement", packet_id=split, part_number=2,
             rejection_code="PACKET_PART_MERGED", notes=["packet_part_merged"])
    document(unsure, PACKET_TITLES[4], "ACTION_REQUIRED", "packet", page_count=3, rejection_code="PACKET_SPLIT_UNSURE",
             notes=["packet_unsure"])
    part = {"confidence": 0.9, "boundary_confidence": 0.9, "sure": True, "decided": False}
    session.add(Packet(document_id=split, brokerage_id=world.brokerage_a, state="split", revision=2, parts=[
        {**part, "first": 1, "last": 1, "document_type": "payslip", "number": 1},
        {**part, "first": 2, "last": 3, "document_type": "bank_statement", "decided": True, "number": 3}]))
    session.add(Packet(document_id=unsure, brokerage_id=world.brokerage_a, state="unsure", revision=1, parts=[
        {**part, "first": 1, "last": 2, "document_type": "payslip", "sure": False},
        {**part, "first": 3, "last": 3, "document_type": "unknown", "sure": False}]))
    for document_id, action, note in (
            (split, "packet_split", "1-1 payslip; 2-2 bank_statement; 3-3 bank_statement"),
            (split, "packet_corrected", "merge: 1-1 payslip; 2-3 bank_statement"),
            (statement, "split_from_packet", None), (statement, "packet_resplit", "merge: now pages 2-3, bank_statement"),
            (retired, "packet_part_merged", "merge"), (unsure, "packet_unsure", "packet_unsure: 1-2 payslip; 3-3 unknown")):
        session.add(AuditEntry(document_id=document_id, action=action, note=note, created_at=at))
    key = f"brokerages/{world.brokerage_a}/documents/{statement}/versions/resplit.json"
    storage.put(key, b'{"fields": {}}', "application/json")
    session.add(DocumentVersion(document_id=statement, part="content", number=1, cause="resplit", storage_key=key,
                                actor_id=world.advisor_a.user_id, created_at=at))
    return [split, unsure, statement]


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_page_shows_words_not_codes_and_dates_in_the_pages_format(app, world, case, language):
    for person in (world.client_a, world.advisor_a, world.admin_a, world.platform_admin):
        update_user(app, person.user_id, language=language)
    workspace = world.workspace_a
    documents = [*case["others"].values(), *case["verified"][:2], case["statement"]]   # an ID, a payslip
    case_pages = [f"/workspaces/{workspace}", f"/workspaces/{workspace}/checks", f"/workspaces/{workspace}/checklist",
                  f"/workspaces/{workspace}/package", f"/workspaces/{workspace}/ending",
                  f"/workspaces/{case['closed']}", f"/workspaces/{case['closed']}/ending"]
    document_pages = [f"/documents/{d}" for d in documents + list(case["packets"])]
    packet_panels = [f"/documents/{d}/split" for d in case["packets"][:2]]
    panels = [f"/documents/{case['statement']}/panels/{name}" for name in ("fields", "versions", "history", "actions")]
    walks = (
        (world.client_a, ["/portal", "/portal/checklist", "/notifications/settings", *document_pages]),
        (world.advisor_a, ["/dashboard", "/dashboard?status=REJECTED", "/dashboard/counts", "/documents/none", *case_pages, *document_pages, *panels,
                          *packet_panels, *(f"/documents/{d}/panels/{name}" for d in case["packets"] for name in ("history", "versions")),
                          f"/documents/{case['statement']}/diff?from=1&to=2", "/notifications/settings"]),
        (world.admin_a, ["/dashboard", "/credits", *case_pages, *document_pages, "/notifications/settings"]),
        (world.platform_admin, ["/review", "/review/stuck", "/review/stuck/work", *document_pages, *packet_panels, case_pages[0]]),
    )
    dated = set()
    for person, paths in walks:
        client = signed_in(app, person)
        for path in paths:
            response = client.get(path)
            assert response.status_code in (200, 202) or path == "/documents/none", (path, response.status_code)
            page = response.get_data(as_text=True)
            assert f'lang="{language}"' in page or not page.lstrip().lower().startswith("<!doctype"), path
            if _check(page, language, case["files"], where=f"{person.email} {path}"):
                dated.add(path)
            if path == "/dashboard":
                assert {"en": ">Verified<", "de": ">Geprüft<"}[language] in page
            # The packets are on the pages walked: the split, the portal's packet, the unsure one's pages.
            if path == f"/documents/{case['packets'][0]}":
                assert 'id="packet-split"' in page and 'class="part-group' in page
            if path == "/portal/checklist":
                assert f'id="packet-{case["packets"][0]}"' in page and 'class="part"' in page
            if path == "/review":
                assert 'class="proposal-part part-unsure"' in page
            if path.endswith(f"{workspace}/checks"):   # the case checks' own dates, as the page writes them
                assert {"en": "starts on 1 Jan 2027", "de": "01.01.2027"}[language] in page
    login = app.test_client().get("/login", headers={"Accept-Language": language})
    assert login.status_code == 200
    _check(login.get_data(as_text=True), language, (), where="/login")
    # The walk met dates where they are: the case (opened, payout), every document (uploaded),
    # the read values, the credits' reservations, the stuck tab.
    assert {f"/workspaces/{workspace}", f"/documents/{case['statement']}", "/credits", "/review/stuck",
            f"/workspaces/{case['closed']}/ending", f"/workspaces/{workspace}/package",
            f"/documents/{case['statement']}/panels/fields"} <= dated


@pytest.mark.parametrize("language", ["en", "de"])
def test_emails_say_why_in_words_and_date_as_the_language_does(language):
    from leadflow.mail.render import render
    reasons = ["Checked on 2026-11-01 and refused (VERIFICATION_FAILED).", "This passport expired on 15 April 2012."]
    common = {"name": "Priya", "settings_url": "https://x/s", "unsubscribe_url": "https://x/u"}
    rejected = render("document_rejected", language, title="Passport", reasons=reasons, portal_url="https://x/p", **common)
    digest = render("advisor_digest", language, since=TODAY, dashboard_url="https://x/d", **common,
                    cases=[{"name": "Case", "url": "https://x/c", "settled": ["Payslip"], "rejected": [], "waiting": []}])
    for subject, text, body in (rejected, digest):
        _check(body, language, (), where=subject)
        _check(html.escape(text), language, (), where=subject)
    assert {"en": "15 Apr 2012", "de": "15.04.2012"}[language] in rejected[1]
    assert {"en": "15 Nov 2026, 12:00", "de": "15.11.2026, 12:00"}[language] in digest[1]


def test_staff_choose_their_language_in_the_header_and_the_page_comes_back_in_it(app, world, case):
    from tests.integration.web_client import post
    advisor = signed_in(app, world.advisor_a)
    assert 'name="language" value="de"' in advisor.get("/dashboard").get_data(as_text=True)
    answer = post(advisor, "/language", {"language": "de", "next": "/dashboard?status=VERIFIED"}, htmx=False)
    assert answer.status_code == 303 and answer.headers["Location"].endswith("/dashboard?status=VERIFIED")
    page = advisor.get("/dashboard").get_data(as_text=True)
    assert '<html lang="de">' in page and ">Geprüft<" in page and ">Verified<" not in page
    assert post(advisor, "/language", {"language": "fr"}, htmx=False).status_code == 400
    assert post(advisor, "/language", {"language": "en", "next": "//evil.example/"}, htmx=False).headers[
        "Location"].endswith("/dashboard")
    assert '<html lang="en">' in advisor.get("/dashboard").get_data(as_text=True)


def test_the_codes_stay_in_the_json_api(app, world, case):
    rejected = case["others"]["REJECTEDVERIFICATION_FAILED"]
    body = world.advisor_a.api.get(f"/api/documents/{rejected}").json()
    assert body["status"] == "REJECTED" and body["rejection_code"] == "VERIFICATION_FAILED"
    history = world.advisor_a.api.get(f"/api/documents/{rejected}/history").json()
    assert "system_retries_spent" in json.dumps(history)


def test_a_date_typed_in_the_pages_format_is_stored_as_a_date_and_an_untouched_form_changes_nothing(app, world, case):
    from tests.integration.web_client import post
    update_user(app, world.advisor_a.user_id, language="de")
    advisor = signed_in(app, world.advisor_a)
    url = f"/documents/{case['statement']}"
    page = advisor.get(url).get_data(as_text=True)
    values = {html.unescape(name): html.unescape(value) for name, value in
              re.findall(r'<input id="f-\d+" name="([^"]+)" type="text" value="([^"]*)"', page)}
    boxes = {html.unescape(name): html.unescape(text) for name, text in
             re.findall(r'<textarea id="f-\d+" name="([^"]+)"[^>]*>(.*?)</textarea>', page, re.S)}
    assert values["field.period_end"] == "30.08.2026" and values["field.issued"] == "15.04.2012"
    assert '"03.08.2026"' in boxes["field.bookings"]
    form = {"version": "2", **values, **boxes}
    assert "Es wurde nichts geändert" in post(advisor, f"{url}/corrections", form).get_data(as_text=True)
    answer = post(advisor, f"{url}/corrections", {**form, "field.period_end": "31.08.2026",
                                                  "field.bookings": boxes["field.bookings"].replace("03.08.2026", "4 Aug 2026")})
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    content = world.advisor_a.api.get(f"/api/documents/{case['statement']}/content").json()
    fields = content.get("fields") or content.get("content", {}).get("fields")
    assert fields["period_end"] == "2026-08-31" and fields["bookings"][0]["date"] == "2026-08-04"
    assert fields["issued"] == "15 April 2012", "an untouched date keeps how it was read"


def _check(page: str, language: str, file_names, where: str) -> bool:
    """Assert the page's visible text holds no code and only dates in the language's format;
    True when it showed a date."""
    text_inputs = " ".join(html.unescape(v) for v in TEXT_INPUT_VALUE.findall(page))
    body = INVISIBLE.sub(" ", page)
    # A field holding a list or object is edited as JSON: its keys are the data's own names.
    boxes = " ".join(html.unescape(t) for t in TEXTAREA.findall(body))
    # Each element's text apart: a number in one cell and a month in the next are not a date.
    visible = html.unescape(TAG.sub(" ¦ ", TEXTAREA.sub(" ", body)))
    spoken = " ¦ ".join(html.unescape(v) for v in SPOKEN_ATTRIBUTES.findall(body))
    for name in file_names:   # a client's file name or title is theirs, whatever it looks like
        visible, spoken = visible.replace(name, " "), spoken.replace(name, " ")
    codes = [m.group(0) for m in UPPER_CODE.finditer(visible)]
    assert not codes, f"{where} ({language}) shows codes: {codes}"
    snakes = [m.group(0) for m in LOWER_CODE.finditer(visible)]
    assert not snakes, f"{where} ({language}) shows codes: {snakes}"
    shown = [m.group(0) for m in DATE_LIKE.finditer(" ".join((visible, boxes, text_inputs)))]
    wrong = [d for d in shown if not FORMAT[language].fullmatch(d)]
    wrong += [m.group(0) for m in MONTH_LIKE.finditer(" ".join((visible, boxes, text_inputs)))
              if not MONTH_FORMAT[language].fullmatch(m.group(0))]
    assert not wrong, f"{where} ({language}) shows dates not in the {language} format: {wrong}"
    if language == "de":
        said = " ".join(" ".join((visible, spoken)).split())
        english = sorted({words for words in _english_only() if words in said})
        assert not english, f"{where} (de) shows English words: {english}"
    return bool(shown)


@lru_cache(maxsize=1)
def _english_only() -> frozenset:
    """The UI's English words that German says otherwise: every message id of the catalog whose
    German differs, cut at its placeholders, each piece of more than one word (a single word may
    be a name, a file's or a person's, and say nothing about the page's language)."""
    with CATALOG.open("rb") as file:
        catalog = read_po(file)
    pieces = set()
    for message in catalog:
        if not message.id or not message.string or isinstance(message.id, tuple) or message.string == message.id:
            continue
        for piece in PLACEHOLDER.split(message.id):
            piece = " ".join(piece.split()).strip(" .,:;·(")
            if len(piece.split()) > 1 and piece not in message.string:
                pieces.add(piece)
    return frozenset(pieces)
