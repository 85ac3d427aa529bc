"""Emails through a real SMTP server in this process (aiosmtpd), sent by the running app's worker:
a rejected upload mails its client in their language, the unsubscribe link stops that kind and no
other, reminders and the advisors' digest go to the right people; the embedded default writes
.eml files; the SMTP transport tells a refusal from an outage; the settings page keeps a user's
own kinds only."""
import asyncio
import email
import re
import threading
from datetime import timedelta
from email import policy

import pytest
import requests
from aiosmtpd.controller import Controller

from leadflow import clock
from leadflow.mail import Mail, MailRefused, MailUnavailable, mailer_from_config
from leadflow.mail.files import FileMailer
from leadflow.mail.smtp import SmtpMailer
from tests.integration.test_portal import SignedIn
from tests.plugins.live import TODAY, free_port, wait_until
from tests.unit.fakes import pdf

pytestmark = pytest.mark.usefixtures("live")
SENDER = "LeadFlow <no-reply@leadflow.test>"


class Inbox:
    """The SMTP server's side: every message it accepted, parsed; refuses recipients named refused@..."""

    def __init__(self):
        self.messages: list[email.message.EmailMessage] = []
        self.envelopes: list[tuple[str, list[str]]] = []
        # Set to an unset Event: the server holds each message's DATA until it is set (a slow server).
        self.hold: threading.Event | None = None
        self.holding = 0

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.startswith("refused@"):
            return "550 5.1.1 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.hold is not None:
            self.holding += 1
            while not self.hold.is_set():
                await asyncio.sleep(0.02)
        self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
        self.messages.append(email.message_from_bytes(envelope.content, policy=policy.default))
        return "250 Message accepted for delivery"

    def wait_for(self, count: int, timeout: float = 20.0) -> list:
        wait_until(lambda: len(self.messages) >= count, timeout=timeout, message=f"{count} emails")
        return list(self.messages)

    def to(self, address: str) -> list:
        return [m for m in self.messages if m["To"] == address]


@pytest.fixture
def smtp():
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield inbox, controller.port
    finally:
        controller.stop()


@pytest.fixture
def inbox(app, smtp, monkeypatch):
    """The running app sends through the in-process SMTP server for this test."""
    inbox, port = smtp
    monkeypatch.setattr(app.extensions["leadflow"], "mail", SmtpMailer("127.0.0.1", port, sender=SENDER))
    return inbox


def test_a_rejected_upload_mails_its_client_in_german_and_the_link_unsubscribes_from_that_kind_only(
        world, app, live, inbox):
    _set_language(app, world.client_a.user_id, "de")
    rejected = _upload_blank(world.client_a.api, "leer.pdf")

    [message] = inbox.wait_for(1)
    assert inbox.envelopes == [("no-reply@leadflow.test", ["client@a.example"])]
    assert message["To"] == "client@a.example" and message["From"] == SENDER
    assert message["Subject"] == "Bitte laden Sie „leer.pdf“ erneut hoch"
    text = message.get_body(("plain",)).get_content()
    html = message.get_body(("html",)).get_content()
    reason = rejected["verification_notes"][0]["de"]
    assert reason in text and reason in html and text.startswith("Guten Tag Rahul Mustermann,")
    assert f"{live.url}/portal" in text
    unsubscribe = re.search(r"(http://\S+/notifications/unsubscribe/\S+)", text).group(1)
    assert message["List-Unsubscribe"] == f"<{unsubscribe}>" and unsubscribe in html
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    # A link scanner opening the link (GET) unsubscribes no one: the page asks, its button POSTs.
    page = requests.get(unsubscribe, timeout=10)
    assert page.status_code == 200 and "Diese E-Mails abbestellen?" in page.text
    assert "Ein Dokument von mir wurde abgelehnt" in page.text and 'method="post"' in page.text
    _upload_blank(world.client_a.api, "noch-leer.pdf")
    inbox.wait_for(2)
    page = requests.post(unsubscribe, timeout=10)
    assert page.status_code == 200 and "Sie sind abgemeldet" in page.text
    assert "Ein Dokument von mir wurde abgelehnt" in page.text

    _upload_blank(world.client_a.api, "wieder-leer.pdf")
    live.drain()
    assert len(inbox.messages) == 2, "unsubscribed from rejections: no third email"

    # Other kinds still come: four days on, the missing items of both clients' cases.
    clock.travel_to(TODAY + timedelta(days=4))
    _run_sweep(app, "reminders")
    live.drain()
    inbox.wait_for(4)
    [german] = inbox.to("client@a.example")[2:]
    [english] = inbox.to("client@b.example")
    assert german["Subject"] == "Für Ihre Baufinanzierung fehlen noch Unterlagen"
    assert "Letzte drei Gehaltsabrechnungen" in german.get_body(("plain",)).get_content()
    assert english["Subject"] == "Documents are still missing for your mortgage"
    assert "Last three payslips" in english.get_body(("plain",)).get_content()
    _run_sweep(app, "reminders")
    live.drain()
    assert len(inbox.messages) == 4, "each item at most once per period"


def test_a_slow_smtp_server_holds_up_neither_the_pipeline_nor_the_next_upload(world, app, live, inbox):
    inbox.hold = threading.Event()
    _upload_blank(world.client_a.api, "one.pdf")
    wait_until(lambda: inbox.holding == 1, message="the first email to be in the middle of its SMTP conversation")
    _upload_blank(world.client_a.api, "two.pdf")  # REJECTED while the first email still waits
    assert inbox.messages == []
    inbox.hold.set()
    assert sorted(m["Subject"] for m in inbox.wait_for(2)) == ["Please upload “one.pdf” again",
                                                                "Please upload “two.pdf” again"]


def test_the_advisor_digest_goes_to_the_staff_of_the_brokerage_whose_case_changed(world, app, live, inbox):
    _upload_blank(world.client_a.api, "leer.pdf")
    inbox.wait_for(1)  # the client's rejection
    clock.travel_to(TODAY + timedelta(hours=2))

    _run_sweep(app, "digests")
    live.drain()
    digests = inbox.wait_for(3)[1:]
    assert sorted(m["To"] for m in digests) == ["admin@a.example", "advisor@a.example"]
    body = inbox.to("advisor@a.example")[0].get_body(("plain",)).get_content()
    assert "Case of client a" in body and "Rejected: leer.pdf" in body
    assert f"{live.url}/workspaces/{world.workspace_a}" in body

    _run_sweep(app, "digests")
    live.drain()
    assert len(inbox.messages) == 3, "one digest a day"


def test_the_embedded_default_writes_each_email_as_an_eml_file(app, world, live, tmp_path):
    mailer = app.extensions["leadflow"].mail
    assert isinstance(mailer, FileMailer), "no MAIL_SERVER: the embedded default"
    before = set(mailer.directory.glob("*.eml"))
    sent = app.extensions["leadflow"].jobs.send("send-mail", Mail(
        to="client@a.example", subject="Grüße", text="Hallo\n", html="<p>Hallo</p>").as_dict())
    assert sent
    # An email to someone who is no user (any more: erased while it waited) is dropped, not written.
    assert app.extensions["leadflow"].jobs.send("send-mail", Mail(
        to="erased@example.test", subject="s", text="t", html="<p>t</p>").as_dict())
    live.drain()
    [written] = set(mailer.directory.glob("*.eml")) - before
    message = email.message_from_bytes(written.read_bytes(), policy=policy.default)
    assert message["To"] == "client@a.example" and message["Subject"] == "Grüße"
    assert message.get_body(("plain",)).get_content() == "Hallo\n"
    assert message.get_body(("html",)).get_content().strip() == "<p>Hallo</p>"

    files = mailer_from_config({"MAIL_DIR": str(tmp_path / "mail")})
    files.send(Mail(to="x@example.test", subject="s", text="t", html="<p>t</p>"))
    assert len(list((tmp_path / "mail").glob("*.eml"))) == 1 and not list((tmp_path / "mail").glob(".*"))


def test_the_smtp_transport_tells_a_refused_recipient_from_an_unreachable_server(smtp):
    inbox, port = smtp
    mailer = mailer_from_config({"MAIL_SERVER": "127.0.0.1", "MAIL_PORT": port, "MAIL_FROM": SENDER})
    assert isinstance(mailer, SmtpMailer)
    mailer.send(Mail(to="ok@example.test", subject="s", text="t", html="<p>t</p>"))
    assert [m["To"] for m in inbox.messages] == ["ok@example.test"]
    with pytest.raises(MailRefused):
        mailer.send(Mail(to="refused@example.test", subject="s", text="t", html="<p>t</p>"))
    with pytest.raises(MailUnavailable):
        SmtpMailer("127.0.0.1", free_port(), sender=SENDER, timeout=2).send(
            Mail(to="ok@example.test", subject="s", text="t", html="<p>t</p>"))


def test_the_settings_page_keeps_a_users_own_kinds_and_refuses_others(world, app):
    client = SignedIn(world.url, world.client_a)
    page = client.get("/notifications/settings")
    assert page.count('type="checkbox" name="kind"') == 3 and "advisor_digest" not in page
    saved = client.post("/notifications/settings", {"kind": ["document_rejected"]})
    assert saved.status_code == 303
    page = client.get("/notifications/settings")
    assert 'value="document_rejected" checked' in page and 'value="missing_reminder" checked' not in page

    refused = client.post("/notifications/settings", {"kind": ["document_rejected", "advisor_digest"]})
    assert refused.status_code == 400
    assert _opted_out(app, world.client_a.user_id) == {"missing_reminder", "document_stale"}, "nothing written"
    assert requests.get(world.url + "/notifications/unsubscribe/not-a-token", timeout=10).status_code == 404


# -- helpers ---------------------------------------------------------------------------------------

def _upload_blank(api, name: str) -> dict:
    answer = api.upload(pdf(text=""), filename=name, kind="payslip")
    assert answer.status_code == 201, answer.text
    return api.wait_for_status(answer.json()["id"], "REJECTED")


def _run_sweep(app, name: str) -> None:
    from leadflow import sweeps
    with app.app_context():
        sweeps.run(name)


def _set_language(app, user_id: int, language: str) -> None:
    from leadflow.extensions import db
    from leadflow.models import User
    with app.app_context():
        db.session.get(User, user_id).language = language
        db.session.commit()
        db.session.remove()


def _opted_out(app, user_id: int) -> set[str]:
    from leadflow.extensions import db
    from leadflow.models import NotificationOptOut
    with app.app_context():
        kinds = set(db.session.scalars(db.select(NotificationOptOut.kind).where(NotificationOptOut.user_id == user_id)))
        db.session.remove()
        return kinds
