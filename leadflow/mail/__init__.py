"""Email: the message LeadFlow sends, and the transports that carry it (SMTP, or .eml files in
the embedded mode), chosen by configuration in `leadflow.bootstrap`.

Use cases never send: they compose a `Mail` and queue it (`leadflow.services.notifications`);
the `send-mail` actor hands it to the transport, so a slow or absent SMTP server holds up a
worker's message, never a request or the pipeline.
"""
from collections.abc import Mapping
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import Protocol, runtime_checkable


class MailUnavailable(Exception):
    """The transport could not take the message now (server down, timeout); worth another try."""


class MailRefused(Exception):
    """The server refused the message for good (bad recipient, too big): trying again will not help."""


@dataclass(frozen=True)
class Mail:
    """One email to one person, plain text and HTML."""
    to: str
    subject: str
    text: str
    html: str
    # Extra headers: List-Unsubscribe and its one-click companion, and which kind it is.
    headers: Mapping[str, str] = field(default_factory=dict)

    def as_dict(self) -> dict:
        """What a queued message carries (JSON)."""
        return {"to": self.to, "subject": self.subject, "text": self.text, "html": self.html,
                "headers": dict(self.headers)}

    @classmethod
    def from_dict(cls, data: Mapping) -> "Mail":
        return cls(to=str(data["to"]), subject=str(data["subject"]), text=str(data["text"]),
                   html=str(data["html"]), headers=dict(data.get("headers") or {}))

    def message(self, sender: str) -> EmailMessage:
        """The MIME message: multipart/alternative, text first (what a mail client shows last wins)."""
        message = EmailMessage()
        message["From"] = sender
        message["To"] = self.to
        message["Subject"] = self.subject
        message["Date"] = formatdate(localtime=False, usegmt=True)
        message["Message-ID"] = make_msgid(domain=_domain(sender))
        for name, value in self.headers.items():
            message[name] = value
        message.set_content(self.text)
        message.add_alternative(self.html, subtype="html")
        return message


@runtime_checkable
class Mailer(Protocol):
    def send(self, mail: Mail) -> None:
        """Hand the message on; raises MailUnavailable (try again) or MailRefused (don't)."""


def mailer_from_config(config: Mapping) -> Mailer:
    """SMTP when MAIL_SERVER is set, else .eml files in MAIL_DIR (the embedded default)."""
    sender = config.get("MAIL_FROM") or "LeadFlow <no-reply@localhost>"
    if config.get("MAIL_SERVER"):
        from leadflow.mail.smtp import SmtpMailer
        return SmtpMailer(config["MAIL_SERVER"], int(config.get("MAIL_PORT") or 25), sender=sender,
                          username=config.get("MAIL_USERNAME") or None, password=config.get("MAIL_PASSWORD") or None,
                          use_tls=bool(config.get("MAIL_USE_TLS")), timeout=float(config.get("MAIL_TIMEOUT_SECONDS") or 10))
    from leadflow.mail.files import FileMailer
    return FileMailer(Path(config.get("MAIL_DIR") or "instance/mail"), sender=sender)


def _domain(sender: str) -> str:
    address = sender.rsplit("<", 1)[-1].rstrip(">").strip()
    return address.rsplit("@", 1)[-1] if "@" in address else "localhost"
