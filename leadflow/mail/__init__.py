"""Email: the message LeadFlow sends, and the transports that carry it (SMTP, or .eml files in
the embedded mode), chosen by configuration in `leadflow.bootstrap`.

Use cases never send: they compose a `Mail` and queue it (`leadflow.services.notifications`);
the `send-mail` actor hands it to the transport, so a slow or absent SMTP server holds up a
worker's message, never a request or the pipeline.
"""
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol, runtime_checkable

from leadflow.mail.message import Mail, MailRefused, MailUnavailable

__all__ = ["Mail", "MailRefused", "MailUnavailable", "Mailer", "mailer_from_config"]


@runtime_checkable
class Mailer(Protocol):
    def send(self, mail: Mail) -> None:
        """Hand the message on; raises MailUnavailable (try again) or MailRefused (don't)."""

    def forget(self, address: str) -> int:
        """Remove what this transport still keeps of mail to `address` (an erased client's); the count."""


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
