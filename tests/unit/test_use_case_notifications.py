"""The email use cases on fakes: who is told what, in which language, once; opted-out users get
nothing; the unsubscribe token is signed; a queued email reaches the transport."""
from datetime import timedelta

import pytest
from sqlalchemy import select

from leadflow import outbox
from leadflow.domain.lifecycle import Status
from leadflow.mail import Mail
from leadflow.models import Document, NotificationOptOut, SentNotification
from leadflow.services import notifications
from tests.unit.fakes import FakeMail, events, world  # noqa: F401  (fixtures)

REASON = {"code": "blank_pages", "en": "Every page of this PDF is blank.", "de": "Jede Seite dieses PDFs ist leer."}


@pytest.fixture
def mails(world, events):  # noqa: F811
    """What the use cases queued (the send-mail payloads), as Mail values, in order."""
    world.ports.settings["SECRET_KEY"] = "test-secret"
    outbox.on(notifications.MailComposed, events)
    return lambda: [Mail.from_dict(e.message) for e in events.of(notifications.MailComposed)]


def test_a_rejected_document_is_told_to_its_client_once_in_their_language_with_the_reason(world, mails):
    world.client.language = "de"
    world.session.commit()
    document_id = world.document(status=Status.REJECTED, notes=[REASON])

    assert notifications.document_rejected(world.session, world.ports, document_id, world.brokerage.id) == 1
    [mail] = mails()
    assert mail.to == "client@example.test"
    assert mail.subject == "Bitte laden Sie „October payslip“ erneut hoch"
    assert "Jede Seite dieses PDFs ist leer." in mail.text and "Jede Seite dieses PDFs ist leer." in mail.html
    assert "Every page" not in mail.text
    assert mail.headers["X-LeadFlow-Kind"] == "document_rejected"
    assert mail.headers["List-Unsubscribe"].startswith("<http://leadflow.test/notifications/unsubscribe/")

    assert notifications.document_rejected(world.session, world.ports, document_id, world.brokerage.id) == 0
    assert len(mails()) == 1, "one email per rejection, however often the hook runs"
    assert notifications.document_rejected(world.session, world.ports, document_id, world.other_brokerage.id) == 0


def test_names_and_titles_cannot_add_headers_or_markup_to_an_email(world, mails):
    world.client.name = "Eve\r\nBcc: everyone@evil.example"
    world.session.commit()
    document_id = world.document(status=Status.REJECTED, notes=[REASON])
    world.session.get(Document, document_id).title = "Pay\r\nBcc: boss@evil.example\r\n\r\n<script>x()</script>"
    world.session.commit()

    assert notifications.document_rejected(world.session, world.ports, document_id, world.brokerage.id) == 1
    [mail] = mails()
    assert "\n" not in mail.subject and "\r" not in mail.subject
    message = mail.message("LeadFlow <no-reply@leadflow.test>")
    head = message.as_string().split("\n\n", 1)[0]
    assert "Bcc" not in message and "\nBcc:" not in head
    assert message["To"] == "client@example.test"
    assert "<script>" not in mail.html and "&lt;script&gt;" in mail.html


def test_no_rejection_email_for_a_failure_of_ours_a_document_not_rejected_or_a_client_who_opted_out(world, mails):
    ours = world.document(status=Status.REJECTED, rejection_code="SYSTEM_RETRIES_EXHAUSTED")
    verified = world.document(status=Status.VERIFIED)
    assert notifications.document_rejected(world.session, world.ports, ours, world.brokerage.id) == 0
    assert notifications.document_rejected(world.session, world.ports, verified, world.brokerage.id) == 0

    notifications.set_preferences(world.session, world.client, {"missing_reminder", "document_stale"})
    rejected = world.document(status=Status.REJECTED, notes=[REASON])
    assert notifications.document_rejected(world.session, world.ports, rejected, world.brokerage.id) == 0
    assert mails() == []


def test_missing_items_are_reminded_after_the_period_and_each_at_most_once_per_period(world, mails):
    world.ports.settings["REMINDER_AFTER_DAYS"] = 3
    world.document(status=Status.VERIFIED, document_type="employment_contract", kind="employment_contract")
    assert notifications.remind_missing(world.session, world.ports, world.case.id) == 0, "the case is new"

    world.clock.advance(timedelta(days=3, minutes=1))
    assert notifications.remind_missing(world.session, world.ports, world.case.id) == 1
    [mail] = mails()
    assert mail.to == "client@example.test" and mail.subject == "Documents are still missing for your mortgage"
    assert "Last three payslips" in mail.text and "Passport or ID card" in mail.text
    assert "Employment contract" not in mail.text, "a done item is not reminded of"
    assert "Mustermann purchase" in mail.text

    world.clock.advance(timedelta(days=2))
    assert notifications.remind_missing(world.session, world.ports, world.case.id) == 0, "reminded 2 days ago"
    world.clock.advance(timedelta(days=1, minutes=1))
    assert notifications.remind_missing(world.session, world.ports, world.case.id) == 1
    reminded = world.session.scalars(select(SentNotification.subject).where(
        SentNotification.kind == "missing_reminder")).all()
    assert reminded.count(f"case-{world.case.id}:payslips") == 2


def test_a_closed_case_reminds_no_one_of_what_is_missing(world, mails):
    from leadflow import sweeps
    world.ports.settings["REMINDER_AFTER_DAYS"] = 3
    world.clock.advance(timedelta(days=3, minutes=1))
    world.case.closed_at = world.clock.now()
    world.session.commit()

    assert notifications.remind_missing(world.session, world.ports, world.case.id) == 0
    assert sweeps.sweep_reminders(world.session, world.ports, world.clock.now(), 10) == 0
    assert mails() == [], "the case waits for its erasure, not for documents"

    world.case.closed_at = None   # reopened: the client came back
    world.session.commit()
    assert sweeps.sweep_reminders(world.session, world.ports, world.clock.now(), 10) == 1


def test_stale_documents_are_told_in_one_email_per_client_each_document_once(world, mails):
    first = world.document(status=Status.VERIFIED, document_type="payslip")
    second = world.document(status=Status.VERIFIED, document_type="bank_statement")
    world.session.get(Document, second).title = "September statement"
    world.session.commit()

    assert notifications.document_stale(world.session, world.ports, [first, second]) == 1
    [mail] = mails()
    assert mail.to == "client@example.test" and mail.subject == "Documents are too old for your lender now"
    assert "October payslip" in mail.text and "September statement" in mail.text
    assert notifications.document_stale(world.session, world.ports, [first, second]) == 0
    assert notifications.document_stale(world.session, world.ports, []) == 0


def test_the_advisor_digest_lists_the_cases_that_changed_since_the_last_one_and_only_their_brokerages(world, mails):
    settled = world.document(status=Status.VERIFIED, document_type="payslip")
    world.document(status=Status.ACTION_REQUIRED)
    world.clock.advance(timedelta(hours=1))

    assert notifications.advisor_digest(world.session, world.ports, world.advisor.id) == 1
    [mail] = mails()
    assert mail.to == "advisor@example.test" and mail.subject == "LeadFlow: what changed in your cases"
    assert "Mustermann purchase" in mail.text and f"http://leadflow.test/workspaces/{world.case.id}" in mail.text
    assert "Verified: October payslip" in mail.text and "Waiting for a person: October payslip" in mail.text
    assert notifications.advisor_digest(world.session, world.ports, world.stranger.id) == 0, "another brokerage"
    assert notifications.advisor_digest(world.session, world.ports, world.client.id) == 0, "clients get none"

    world.clock.advance(timedelta(hours=2))
    assert notifications.advisor_digest(world.session, world.ports, world.advisor.id) == 0, "one a day"
    world.clock.advance(timedelta(days=1))
    assert notifications.advisor_digest(world.session, world.ports, world.advisor.id) == 0, "nothing changed since"
    world.session.get(Document, settled).status_changed_at = world.clock.now()
    world.session.commit()
    world.clock.advance(timedelta(minutes=1))
    assert notifications.advisor_digest(world.session, world.ports, world.advisor.id) == 1


def test_an_unsubscribe_token_opts_its_user_out_of_its_kind_and_a_forged_one_does_nothing(world, mails):
    token = notifications.unsubscribe_token(world.ports.settings, world.client.id, "missing_reminder")
    assert notifications.read_unsubscribe_token(world.ports.settings, token) == (world.client.id, "missing_reminder")
    assert notifications.read_unsubscribe_token(world.ports.settings, token[:-2] + "xx") is None
    # What the link's page asks about (a GET, which link scanners send too) opts no one out.
    assert notifications.unsubscribe_subject(world.session, world.ports.settings, token) == (world.client,
                                                                                             "missing_reminder")
    assert "missing_reminder" in notifications.enabled_kinds(world.session, world.client)
    assert notifications.read_unsubscribe_token({"SECRET_KEY": "another"}, token) is None
    advisor_kind = notifications.unsubscribe_token(world.ports.settings, world.client.id, "advisor_digest")
    assert notifications.unsubscribe(world.session, world.ports.settings, advisor_kind) is None

    user, kind = notifications.unsubscribe(world.session, world.ports.settings, token)
    assert (user.id, kind) == (world.client.id, "missing_reminder")
    notifications.unsubscribe(world.session, world.ports.settings, token)  # a second click is harmless
    assert world.session.scalars(select(NotificationOptOut.kind)).all() == ["missing_reminder"]
    assert notifications.enabled_kinds(world.session, world.client) == {"document_rejected", "document_stale"}

    world.clock.advance(timedelta(days=4))
    assert notifications.remind_missing(world.session, world.ports, world.case.id) == 0
    assert mails() == []


def test_preferences_keep_only_the_users_own_kinds(world, mails):
    with pytest.raises(ValueError):
        notifications.set_preferences(world.session, world.client, {"advisor_digest"})
    notifications.set_preferences(world.session, world.advisor, set())
    assert notifications.enabled_kinds(world.session, world.advisor) == set()
    notifications.set_preferences(world.session, world.advisor, {"advisor_digest"})
    assert notifications.enabled_kinds(world.session, world.advisor) == {"advisor_digest"}


def test_a_queued_email_reaches_the_transport_and_an_unreachable_one_raises_for_a_retry(world):
    from leadflow.mail import MailUnavailable
    world.ports.mail = FakeMail()
    message = Mail(to="Client@Example.test", subject="s", text="t", html="<p>t</p>").as_dict()
    assert notifications.deliver(world.session, world.ports, message)
    assert [m.to for m in world.ports.mail.sent] == ["Client@Example.test"]
    world.ports.mail.down = True
    with pytest.raises(MailUnavailable):
        notifications.deliver(world.session, world.ports, message)


@pytest.mark.parametrize("to", ["a@b.example, c@d.example", "Eve <e@x.example>", "a@b.example\r\nBcc: x@y.example", ""])
def test_an_email_goes_to_one_address_or_is_refused_for_good(to):
    from leadflow.mail import MailRefused
    with pytest.raises(MailRefused):
        Mail(to=to, subject="s", text="t", html="<p>t</p>").message("LeadFlow <no-reply@leadflow.test>")


def test_an_email_still_queued_when_its_recipient_is_erased_is_not_sent(world):
    from leadflow.services import erasure
    world.ports.mail = FakeMail()
    message = Mail(to="client@example.test", subject="s", text="t", html="<p>t</p>").as_dict()
    erasure.erase_client(world.session, world.ports, world.broker_admin, world.client.id)
    assert notifications.deliver(world.session, world.ports, message) is False
    assert world.ports.mail.sent == []


def test_the_daily_sweeps_walk_every_due_case_and_advisor_in_batches(world, mails):
    from leadflow import sweeps
    from leadflow.models import User, Workspace, WorkspaceMember
    cases = [world.case]
    for n in range(2):
        client = User(email=f"client{n}@example.test", name=f"Client {n}", role="client",
                      brokerage_id=world.brokerage.id, password_hash="-")
        case = Workspace(brokerage_id=world.brokerage.id, name=f"Case {n}")
        world.session.add_all([client, case])
        world.session.flush()
        world.session.add(WorkspaceMember(workspace_id=case.id, user_id=client.id))
        cases.append(case)
    world.session.add(Workspace(brokerage_id=world.brokerage.id, name="No client yet"))
    world.session.commit()
    world.document(status=Status.REJECTED, notes=[REASON])
    world.clock.advance(timedelta(days=4))

    assert sweeps.sweep_reminders(world.session, world.ports, world.clock.now(), 1) == 3, "one reminder per client"
    assert sorted(m.to for m in mails()) == ["client0@example.test", "client1@example.test", "client@example.test"]
    assert sweeps.sweep_reminders(world.session, world.ports, world.clock.now(), 1) == 0

    notifications.set_preferences(world.session, world.broker_admin, set())
    world.document(status=Status.VERIFIED, document_type="payslip")
    world.clock.advance(timedelta(minutes=1))
    assert sweeps.sweep_digests(world.session, world.ports, world.clock.now(), 1) == 1
    assert mails()[-1].to == "advisor@example.test", "the admin opted out; the stranger's brokerage did not change"
    assert sweeps.sweep_digests(world.session, world.ports, world.clock.now(), 1) == 0
