"""The staff screens against PostgreSQL: the dashboard's filters, search, keyset pages and counts;
case, document, review and credits pages; and that another brokerage's pages are not found."""
import html
import re
from datetime import datetime, timedelta

import pytest

from tests.corpus import SAMPLES
from tests.integration.records import audit
from tests.integration.web_client import post, signed_in
from tests.plugins.live import TODAY, wait_until

BANK_STATEMENT = SAMPLES / "bank-statements" / "synthetic_bank_statement_A1_01.pdf"
ROW = re.compile(r'<tr id="document-([0-9a-f]+)"')
NEXT = re.compile(r'<a id="next-page"[^>]*?href="([^"]*)"[^>]*?(hidden)?>')


# --- helpers ---------------------------------------------------------------------------------

def row_ids(page_html: str) -> list[str]:
    body = page_html.split('id="documents-body"', 1)[1].split("</tbody>", 1)[0]
    return ROW.findall(body)


def next_link(page_html: str) -> str | None:
    match = NEXT.search(page_html)
    if not match or match.group(2) or not match.group(1):
        return None
    return html.unescape(match.group(1))


def walk(client, url: str) -> list[str]:
    """Every row of every page, following the next links from `url`."""
    seen, pages = [], 0
    while url:
        response = client.get(url)
        assert response.status_code == 200, response.get_data(as_text=True)[:500]
        text = response.get_data(as_text=True)
        seen += row_ids(text)
        url = next_link(text)
        pages += 1
        assert pages < 50, "the pages never end"
    return seen


@pytest.fixture
def seeded(app, world):
    """Brokerage a with 260 seeded documents (and five that share one created_at), brokerage b
    with 30; returns brokerage a's documents as dicts, newest first."""
    from leadflow.cli_seed import seed
    from leadflow.extensions import db
    from leadflow.models import Document
    from leadflow.services import counts
    with app.app_context():
        seed(260, "Alpha Hypotheken", random_seed=7, now=TODAY)
        seed(30, "Beta Baufinanz", random_seed=8, now=TODAY)
        tie = TODAY - timedelta(days=3)
        for i in range(5):
            db.session.add(Document(id=f"{i:032x}", brokerage_id=world.brokerage_a, owner_id=world.client_a.user_id,
                                    workspace_id=world.workspace_a, title=f"Tied payslip {i}", kind="payslip",
                                    document_type="payslip", confidence=0.9, status="VERIFIED", filename="tie.pdf",
                                    content_type="application/pdf", size_bytes=1000, storage_key=f"tie/{i}",
                                    verification_notes=[], created_at=tie, updated_at=tie, status_changed_at=tie))
        db.session.commit()
        counts.recount(db.session)
        db.session.commit()
        rows = db.session.scalars(db.select(Document).where(Document.brokerage_id == world.brokerage_a)
                                  .order_by(Document.created_at.desc(), Document.id.desc())).all()
        found = [{"id": d.id, "status": d.status, "type": d.document_type, "workspace": d.workspace_id,
                  "owner": d.owner_id, "title": d.title} for d in rows]
        db.session.remove()
    return found


# --- the dashboard ---------------------------------------------------------------------------

def test_the_dashboard_pages_through_every_document_newest_first_without_duplicates_or_gaps(app, world, seeded):
    advisor = signed_in(app, world.advisor_a)
    first = advisor.get("/dashboard").get_data(as_text=True)
    assert len(row_ids(first)) == 100
    assert walk(advisor, "/dashboard") == [d["id"] for d in seeded]


@pytest.mark.parametrize("filters, keep", [
    ({"status": "REJECTED"}, lambda d: d["status"] == "REJECTED"),
    ({"status": "ACTION_REQUIRED"}, lambda d: d["status"] == "ACTION_REQUIRED"),
    ({"type": "payslip"}, lambda d: d["type"] == "payslip"),
    ({"status": "VERIFIED", "type": "bank_statement"},
     lambda d: d["status"] == "VERIFIED" and d["type"] == "bank_statement"),
    ({"q": "PAYSLIP"}, lambda d: "payslip" in d["title"].lower()),
    ({"q": "kontoauszug", "status": "VERIFIED"},
     lambda d: "kontoauszug" in d["title"].lower() and d["status"] == "VERIFIED"),
])
def test_each_filter_shows_exactly_the_matching_documents_across_pages(app, world, seeded, filters, keep):
    advisor = signed_in(app, world.advisor_a)
    query = "&".join(f"{k}={v}" for k, v in filters.items())
    expected = [d["id"] for d in seeded if keep(d)]
    assert expected, "the seed makes some of each"
    assert walk(advisor, f"/dashboard?{query}") == expected


def test_a_case_and_a_client_filter_show_only_their_documents(app, world, seeded):
    advisor = signed_in(app, world.advisor_a)
    busiest = max({d["workspace"] for d in seeded}, key=lambda w: sum(d["workspace"] == w for d in seeded))
    owner = next(d["owner"] for d in seeded if d["workspace"] == busiest)
    assert walk(advisor, f"/dashboard?workspace={busiest}") == [d["id"] for d in seeded if d["workspace"] == busiest]
    assert walk(advisor, f"/dashboard?client={owner}") == [d["id"] for d in seeded if d["owner"] == owner]


def test_search_reads_the_text_literally_and_ignores_case(app, world, seeded):
    advisor = signed_in(app, world.advisor_a)
    assert walk(advisor, "/dashboard?q=tied%20PAYSLIP") == [f"{i:032x}" for i in reversed(range(5))]
    assert walk(advisor, "/dashboard?q=%25") == []       # a % is a character, not a wildcard
    assert walk(advisor, "/dashboard?q=_") == []


def _names_and_files(app, world):
    """Brokerage a's documents newest first as (id, title, file name, client's name)."""
    from leadflow.extensions import db
    from leadflow.models import Document, User
    with app.app_context():
        rows = db.session.execute(db.select(Document.id, Document.title, Document.filename, User.name)
                                  .join(User, User.id == Document.owner_id)
                                  .where(Document.brokerage_id == world.brokerage_a)
                                  .order_by(Document.created_at.desc(), Document.id.desc())).all()
        db.session.remove()
    return rows


def test_search_finds_a_file_name_and_a_clients_name_misspelt_too(app, world, seeded):
    advisor = signed_in(app, world.advisor_a)
    rows = _names_and_files(app, world)
    # A seeded client ("First Last") with a surname long enough to survive a slip of the keys: in
    # a three-letter name two letters swapped leave no trigram of it.
    name = next(r.name for r in rows[len(rows) // 2:] if len(r.name.split(" ", 1)[1]) >= 6)
    first, last = name.split(" ", 1)
    i = len(last) // 2
    misspelt = f"{first} {last[:i - 1]}{last[i]}{last[i - 1]}{last[i + 1:]}"   # two letters swapped
    theirs = [r.id for r in rows if r.name == name]
    assert theirs and misspelt != name
    assert walk(advisor, f"/dashboard?q={name}") == theirs
    assert walk(advisor, f"/dashboard?q={misspelt}") == theirs
    # A file name: the seed's file names are the titles in lower case with underscores.
    filename = rows[7].filename
    assert walk(advisor, f"/dashboard?q={filename.upper()}") == [
        r.id for r in rows if filename in r.filename.lower() or filename in r.title.lower()]


def test_a_short_surname_with_two_letters_swapped_finds_the_client(app, world, seeded):
    """"Stao" shares one trigram of five with "Sato" (word similarity 0.2, under the threshold):
    a surname of three or four letters is looked for with each pair of its letters swapped back."""
    advisor = signed_in(app, world.advisor_a)
    rows = _names_and_files(app, world)
    name = next(r.name for r in rows if len(r.name.split(" ", 1)[1]) == 4)
    first, last = name.split(" ", 1)
    misspelt = f"{first} {last[0]}{last[2]}{last[1]}{last[3]}"
    theirs = [r.id for r in rows if r.name == name]
    assert theirs and misspelt != name
    assert walk(advisor, f"/dashboard?q={misspelt}") == theirs
    # Alone, a word is matched as written: "Stao" is no one's name.
    assert walk(advisor, f"/dashboard?q={misspelt.split()[1]}") == []


@pytest.mark.parametrize("q", ["payslip", "kontoauszug", "Tied payslip", "zzz-nothing"])
def test_a_search_shows_the_same_rows_from_the_newest_documents_as_from_the_indexes(app, world, seeded, q,
                                                                                       monkeypatch):
    """text_search.newest_matches reads the newest SEARCH_WINDOW rows first; with a window that holds
    every document, a window of a few rows (then the trigram indexes) must show the same."""
    from leadflow.services import text_search
    advisor = signed_in(app, world.advisor_a)
    everything = walk(advisor, f"/dashboard?q={q}")
    monkeypatch.setattr(text_search, "SEARCH_WINDOW", 3)
    assert walk(advisor, f"/dashboard?q={q}") == everything
    if q == "zzz-nothing":
        assert everything == []
    else:
        assert everything


def test_documents_that_arrive_between_pages_cause_neither_duplicates_nor_gaps(app, world, seeded):
    advisor = signed_in(app, world.advisor_a)
    first = advisor.get("/dashboard").get_data(as_text=True)
    newer = [_bare_document(app, world, f"Newer {i}", created=TODAY + timedelta(minutes=i)) for i in range(30)]
    second = advisor.get(next_link(first)).get_data(as_text=True)
    shown = row_ids(first) + row_ids(second)
    assert shown == [d["id"] for d in seeded][:200]
    assert not set(newer) & set(shown)
    assert row_ids(advisor.get("/dashboard").get_data(as_text=True))[:30] == newer[::-1]


def test_the_filters_live_in_the_query_string_so_a_filtered_page_is_a_link(app, world, seeded):
    advisor = signed_in(app, world.advisor_a)
    page = advisor.get("/dashboard?status=REJECTED&type=payslip&q=pay").get_data(as_text=True)
    assert '<option value="REJECTED" selected>' in page
    assert '<option value="payslip" selected>' in page
    assert 'value="pay"' in page
    # The snapshot a page re-fetches when its socket opens asks for the same filters.
    assert "/partials/documents?view=dashboard&amp;status=REJECTED&amp;type=payslip&amp;q=pay" in page
    # A count links to its status and keeps the other filters.
    assert 'href="/dashboard?status=VERIFIED&amp;type=payslip&amp;q=pay"' in page


def test_the_live_snapshot_returns_the_same_rows_as_the_page(app, world, seeded):
    advisor = signed_in(app, world.advisor_a)
    page = advisor.get("/dashboard?status=VERIFIED").get_data(as_text=True)
    snapshot = advisor.get("/partials/documents?view=dashboard&status=VERIFIED").get_data(as_text=True)
    assert ROW.findall(snapshot) == row_ids(page)


def test_a_filter_value_that_cannot_be_right_is_dropped_and_said_so(app, world, seeded):
    advisor = signed_in(app, world.advisor_a)
    response = advisor.get("/dashboard?status=LOST&type=poem&workspace=abc&cursor=garbage")
    text = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "There is no status “LOST”" in text and "There is no document type “poem”" in text
    assert "is not a case number" in text and "not one we made" in text
    assert row_ids(text) == [d["id"] for d in seeded][:100]


def test_the_counts_per_status_are_the_brokerages_own(app, world, seeded):
    advisor = signed_in(app, world.advisor_a)
    counts = advisor.get("/dashboard/counts").get_data(as_text=True)
    for status in ("VERIFIED", "REJECTED", "ACTION_REQUIRED", "PENDING"):
        expected = sum(d["status"] == status for d in seeded)
        assert re.search(rf'data-testid="count-{status}">{expected:,}<', counts), status
    assert re.search(rf'data-testid="count-ALL">{len(seeded):,}<', counts)


def test_the_case_and_client_pickers_narrow_by_name_within_the_brokerage(app, world, seeded):
    advisor = signed_in(app, world.advisor_a)
    options = advisor.get("/dashboard/options/workspaces?name=case%20of").get_data(as_text=True)
    assert "Case of client a" in options and "Case of client b" not in options
    clients = advisor.get("/dashboard/options/clients?name=Muster").get_data(as_text=True)
    assert "Rahul Mustermann" in clients and "Amira Vorlage" not in clients, "client b matches, in another brokerage"


def test_only_staff_of_a_brokerage_open_the_dashboard(app, world):
    assert signed_in(app, world.client_a).get("/dashboard").status_code == 403
    assert signed_in(app, world.advisor_a).get("/dashboard").status_code == 200
    assert signed_in(app, world.advisor_a).get("/review").status_code == 403
    assert signed_in(app, world.advisor_a).get("/credits").status_code == 403
    assert app.test_client().get("/dashboard").status_code == 302


# --- another brokerage -----------------------------------------------------------------------

def test_another_brokerages_case_and_document_pages_are_not_found(app, world):
    document_id = _uploaded(world, kind="bank_statement", status="VERIFIED")
    intruder = signed_in(app, world.advisor_b)
    for url in (f"/workspaces/{world.workspace_a}", f"/workspaces/{world.workspace_a}/checklist",
                f"/documents/{document_id}", f"/documents/{document_id}/file",
                f"/documents/{document_id}/panels/fields", f"/documents/{document_id}/panels/history",
                f"/documents/{document_id}/diff?from=1&to=1",
                f"/dashboard?workspace={world.workspace_a}"):
        response = intruder.get(url)
        if url.startswith("/dashboard"):
            assert response.status_code == 200 and row_ids(response.get_data(as_text=True)) == [], url
        else:
            assert response.status_code == 404, url
    for action in ("corrections", "reprocess", "revert", "shares", "retry", "customise"):
        assert post(intruder, f"/documents/{document_id}/{action}", {"email": "advisor@b.example"}).status_code == 404, action
    own = signed_in(app, world.advisor_a)
    assert own.get(f"/documents/{document_id}").status_code == 200
    assert own.get(f"/workspaces/{world.workspace_a}").status_code == 200


# --- a case ----------------------------------------------------------------------------------

def test_the_case_page_shows_its_checklist_with_what_is_missing_and_its_documents(app, world):
    document_id = _uploaded(world, kind="bank_statement", status="VERIFIED")
    page = signed_in(app, world.advisor_a).get(f"/workspaces/{world.workspace_a}").get_data(as_text=True)
    assert "Case of client a" in page and "Rahul Mustermann" in page
    assert row_ids(page) == [document_id]
    assert re.search(r'data-testid="missing"><strong>\d+ missing:</strong>', page)
    assert "Passport or ID card" in page and "Last three payslips" in page
    bank = page.split('data-item="bank_statements"', 1)[1].split("</li>\n", 1)[0]
    assert "1 of 3 verified" in bank


# --- a document ------------------------------------------------------------------------------

def test_a_correction_from_the_page_makes_a_new_version_and_the_diff_shows_it(app, world):
    document_id = _uploaded(world, kind="bank_statement", status="VERIFIED")
    advisor = signed_in(app, world.advisor_a)
    page = advisor.get(f"/documents/{document_id}").get_data(as_text=True)
    assert 'name="field.iban"' in page and 'data-testid="fields-version">version 1 · First reading' in page
    assert f'data="/documents/{document_id}/file#navpanes=0" type="application/pdf"' in page

    saved = post(advisor, f"/documents/{document_id}/corrections",
                 {"version": "1", "field.holder": "Rahul Mustermann-Corrected"})
    assert saved.status_code == 200, saved.get_data(as_text=True)
    assert saved.headers["HX-Trigger"] == "leadflow:document-changed"
    assert "version 2 · Corrected" in saved.get_data(as_text=True)

    versions = advisor.get(f"/documents/{document_id}/panels/versions").get_data(as_text=True)
    assert re.search(r'data-version="2">\s*<span class="version-n">v2</span>\s*<span class="cause">Corrected</span>', versions)
    assert "by Advisor A" in versions and "replaces v1" in versions
    diff = advisor.get(f"/documents/{document_id}/diff?from=1&to=2").get_data(as_text=True)
    assert 'class="diff-changed"><th scope="row">Account holder</th>' in diff
    assert "Rahul Mustermann-Corrected" in diff
    history = advisor.get(f"/documents/{document_id}/panels/history").get_data(as_text=True)
    assert "corrected holder" in history and "by Advisor A" in history

    stale = post(advisor, f"/documents/{document_id}/corrections", {"version": "1", "field.holder": "x"})
    assert stale.status_code == 409 and "Someone saved version 2" in stale.get_data(as_text=True)
    bad = post(advisor, f"/documents/{document_id}/corrections", {"version": "2", "new_name": "x", "new_value": ""})
    assert bad.status_code == 200   # adding an empty field is a change
    unchanged = post(advisor, f"/documents/{document_id}/corrections", {"version": "3"})
    assert unchanged.status_code == 400 and "Nothing was changed" in unchanged.get_data(as_text=True)


def test_actions_answer_with_their_errors_inline(app, world):
    document_id = _uploaded(world, kind="bank_statement", status="VERIFIED")
    advisor = signed_in(app, world.advisor_a)
    share = post(advisor, f"/documents/{document_id}/shares", {"email": "nobody@nowhere.example"})
    assert share.status_code == 400 and "No one in this brokerage has that email" in share.get_data(as_text=True)
    custom = post(advisor, f"/documents/{document_id}/customise", {})
    assert custom.status_code == 400 and "Pick at least one field" in custom.get_data(as_text=True)
    retry = post(advisor, f"/documents/{document_id}/retry")
    assert retry.status_code == 403 and "Only an admin" in retry.get_data(as_text=True)
    outside = post(advisor, f"/documents/{document_id}/shares", {"email": "client@b.example"})
    assert outside.status_code == 400 and "No one in this brokerage has that email" in outside.get_data(as_text=True)
    assert world.client_b.api.get(f"/api/documents/{document_id}").status_code == 404
    shared = post(advisor, f"/documents/{document_id}/shares", {"email": "admin@a.example"})
    assert shared.status_code == 200 and "Shared with admin@a.example" in shared.get_data(as_text=True)


# --- review ----------------------------------------------------------------------------------

def test_the_stuck_and_failed_tab_lists_system_failures_stuck_work_and_ledger_discrepancies(app, world):
    from leadflow import clock, outbox
    from leadflow.domain.lifecycle import Status
    from leadflow.extensions import db
    from leadflow.models import CreditWallet
    from leadflow.services import transitions
    failed = _bare_document(app, world, "Failed payslip")
    stuck = _bare_document(app, world, "Stuck payslip", created=clock.now() - timedelta(hours=1))
    with app.app_context():
        transitions.apply(db.session, failed, Status.PENDING, Status.REJECTED, action="retries_exhausted",
                          rejection_code="SYSTEM_RETRIES_EXHAUSTED")
        db.session.execute(db.update(CreditWallet).where(CreditWallet.brokerage_id == world.brokerage_b)
                           .values(balance=CreditWallet.balance - 7))
        outbox.commit()
    page = signed_in(app, world.platform_admin).get("/review/stuck").get_data(as_text=True)
    assert row_ids(page) == [failed]
    assert 'data-code="SYSTEM_RETRIES_EXHAUSTED">Our system failed; its automatic retries are used up<' in page
    assert "SYSTEM_RETRIES_EXHAUSTED<" not in page and ">Retry</button>" in page
    pending = page.split('data-stuck="PENDING"', 1)[1].split('data-stuck="PROCESSING"', 1)[0]
    assert f"/documents/{stuck}" in pending and "Stuck payslip" in pending
    ledger = page.split('id="ledger-heading"', 1)[1]
    assert "Beta Baufinanz" in ledger and "Alpha Hypotheken" not in ledger

    retried = post(signed_in(app, world.platform_admin), f"/documents/{failed}/retry")
    # The answer is the row as it is now, which the app's worker may have claimed already: no
    # longer a failure to retry.
    answer = retried.get_data(as_text=True)
    assert retried.status_code == 200 and f'id="document-{failed}"' in answer and ">Retry</button>" not in answer
    retried_by = [(a[4], a[1], a[2]) for a in audit(app, failed) if a[0] == "retried"]
    assert retried_by == [(world.platform_admin.user_id, "REJECTED", "PENDING")]


def test_a_reviewer_must_give_a_reason_to_reject(app, world):
    document_id = _uploaded(world, kind="payslip", status="ACTION_REQUIRED")
    reviewer = signed_in(app, world.platform_admin)
    refused = post(reviewer, f"/review/{document_id}/decide", {"action": "reject", "reason": " "})
    assert refused.status_code == 400 and "Give a reason to reject" in refused.get_data(as_text=True)
    rejected = post(reviewer, f"/review/{document_id}/decide", {"action": "reject", "reason": "Not a payslip"})
    assert rejected.status_code == 200 and 'data-status="REJECTED"' in rejected.get_data(as_text=True)
    assert row_ids(reviewer.get("/review").get_data(as_text=True)) == []


# --- credits ---------------------------------------------------------------------------------

def test_the_credits_page_shows_the_wallet_open_reservations_and_pages_settled_per_month(app, world):
    from leadflow import clock
    from leadflow.billing import service as billing
    from leadflow.extensions import db
    from leadflow.models import ExtractionJob
    document_id = _bare_document(app, world, "Payslip for the ledger")
    with app.app_context():
        for job_id, when, reserved, used in (("job-aug", datetime(2026, 8, 10), 5, 4),
                                             ("job-oct1", datetime(2026, 10, 3), 3, 3),
                                             ("job-oct2", datetime(2026, 10, 20), 2, 1),
                                             ("job-old", datetime(2025, 9, 1), 9, 9),   # out of the 12 months
                                             ("job-open", TODAY, 6, None)):
            clock.travel_to(when)
            db.session.add(ExtractionJob(id=job_id, document_id=document_id, brokerage_id=world.brokerage_a,
                                         mode="first", status="accepted"))
            db.session.flush()
            billing.reserve(db.session, world.brokerage_a, job_id, reserved)
            if used is not None:
                billing.settle(db.session, job_id, used)
            db.session.commit()
        clock.travel_to(TODAY)
    page = signed_in(app, world.admin_a).get("/credits").get_data(as_text=True)
    # granted 1000; settled 4 + 3 + 1 + 9 = 17; 6 reserved; balance 977
    assert 'data-testid="balance">977<' in page and 'data-testid="reserved">6<' in page
    assert 'data-testid="settled">17<' in page and 'data-testid="granted">1,000<' in page
    assert "✓ balance + reserved + settled = granted" in page
    assert 'data-testid="month-2026-08">4<' in page and 'data-testid="month-2026-10">4<' in page
    assert 'data-testid="month-2026-11">0<' in page and 'data-testid="month-2025-12">0<' in page
    assert "month-2025-11" not in page and "month-2025-09" not in page
    assert page.count('<g class="bar"') == 12
    assert re.search(r'data-month="2026-10" data-pages="4">\s*<rect [^>]*height="[1-9]', page)
    reservations = page.split('data-testid="reservations"', 1)[1].split("</table>", 1)[0]
    assert "Payslip for the ledger" in reservations and "<td>6</td>" in reservations
    assert signed_in(app, world.admin_b).get("/credits").get_data(as_text=True).count('data-testid="balance">1,000<') == 1


# --- helpers that make documents -------------------------------------------------------------

def _uploaded(world, *, kind: str, status: str) -> str:
    api = world.client_a.api
    document_id = api.upload(BANK_STATEMENT, kind=kind).json()["id"]
    assert api.wait_for_status(document_id, {"VERIFIED", "REJECTED", "ACTION_REQUIRED"})["status"] == status
    return document_id


def _bare_document(app, world, title: str, created: datetime | None = None) -> str:
    """A PENDING document of client a that no worker was asked to process."""
    from leadflow import clock
    from leadflow.extensions import db
    from leadflow.models import Document, new_id
    from leadflow.services import counts
    created = created or clock.now()
    with app.app_context():
        document = Document(id=new_id(), brokerage_id=world.brokerage_a, owner_id=world.client_a.user_id,
                            workspace_id=world.workspace_a, title=title, kind="payslip", status="PENDING",
                            filename="p.pdf", content_type="application/pdf", size_bytes=100, storage_key="none/p.pdf",
                            verification_notes=[], created_at=created, updated_at=created, status_changed_at=created)
        db.session.add(document)
        counts.bump(db.session, world.brokerage_a, {"PENDING": 1})
        db.session.commit()
        document_id = document.id
        db.session.remove()
    return document_id


def test_a_client_sees_their_own_documents_page_with_the_file_but_not_the_staff_tools(app, world):
    document_id = _uploaded(world, kind="bank_statement", status="VERIFIED")
    response = signed_in(app, world.client_a).get(f"/documents/{document_id}")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert f'id="document-{document_id}"' in page and f"/documents/{document_id}/file" in page
    for staff_only in ('id="fields-panel"', 'id="actions-panel"', 'id="versions-panel"', 'id="history-panel"'):
        assert staff_only not in page
    assert signed_in(app, world.client_a).get(f"/documents/{document_id}/panels/fields").status_code == 404
    assert signed_in(app, world.client_b).get(f"/documents/{document_id}").status_code == 404


def test_reprocess_customise_and_revert_from_the_page_each_add_a_version(app, world):
    document_id = _uploaded(world, kind="bank_statement", status="VERIFIED")
    advisor = signed_in(app, world.advisor_a)
    api = world.advisor_a.api

    def causes():
        return [v["cause"] for v in api.get(f"/api/documents/{document_id}/versions").json()["versions"]
                if v["part"] == "content"]

    reprocessed = post(advisor, f"/documents/{document_id}/reprocess")
    assert reprocessed.status_code == 200 and "Extracting again" in reprocessed.get_data(as_text=True)
    assert 'data-status="EXTRACTING"' in reprocessed.get_data(as_text=True)   # the row, out of band
    api.wait_for_status(document_id, "VERIFIED")
    assert causes() == ["generated", "reprocessed"]

    customised = post(advisor, f"/documents/{document_id}/customise", {"fields": ["iban", "holder"], "more_fields": "bank"})
    assert customised.status_code == 200 and "Asked for IBAN, Account holder, Bank" in customised.get_data(as_text=True)
    api.wait_for_status(document_id, "VERIFIED")
    wait_until(lambda: causes() == ["generated", "reprocessed", "customised"], message="the customised version")
    content = api.get(f"/api/documents/{document_id}/content").json()["content"]
    assert list(content["fields"]) == ["iban", "holder", "bank"]

    reverted = post(advisor, f"/documents/{document_id}/revert")
    assert reverted.status_code == 200 and "Back to the original extraction" in reverted.get_data(as_text=True)
    assert causes() == ["generated", "reprocessed", "customised", "reverted"]
    fields = advisor.get(f"/documents/{document_id}/panels/fields").get_data(as_text=True)
    assert "version 4 · Back to the original reading" in fields and 'name="field.period_start"' in fields
