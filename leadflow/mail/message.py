"""An email LeadFlow sends (one person, text and HTML), and what a transport may answer."""
from collections.abc import Mapping
from dataclasses import dataclass, field
from email.errors import HeaderParseError
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import formatdate, make_msgid


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
        # One person's address, never a list: a stored address with a comma or a display name must
        # not turn one email into several.
        try:
            message["To"] = Address(addr_spec=self.to.strip())
        except (ValueError, IndexError, HeaderParseError) as exc:
            raise MailRefused("the recipient is not one email address") from exc
        message["Subject"] = self.subject
        message["Date"] = formatdate(localtime=False, usegmt=True)
        message["Message-ID"] = make_msgid(domain=_domain(sender))
        for name, value in self.headers.items():
            message[name] = value
        message.set_content(self.text)
        message.add_alternative(self.html, subtype="html")
        return message


def _domain(sender: str) -> str:
    address = sender.rsplit("<", 1)[-1].rstrip(">").strip()
    return address.rsplit("@", 1)[-1] if "@" in address else "localhost"
