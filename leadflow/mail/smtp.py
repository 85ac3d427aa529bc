"""The SMTP transport (stdlib smtplib): one connection per message, STARTTLS when asked."""
import logging
import smtplib
import ssl

from leadflow.mail.message import Mail, MailRefused, MailUnavailable

log = logging.getLogger(__name__)


class SmtpMailer:
    def __init__(self, host: str, port: int = 25, *, sender: str, username: str | None = None,
                 password: str | None = None, use_tls: bool = False, timeout: float = 10.0):
        self.host, self.port, self.sender = host, port, sender
        self._username, self._password = username, password
        self._use_tls, self._timeout = use_tls, timeout

    def forget(self, address: str) -> int:
        return 0  # what was handed to the SMTP server is no longer ours to hold

    def send(self, mail: Mail) -> None:
        message = mail.message(self.sender)
        try:
            with smtplib.SMTP(self.host, self.port, timeout=self._timeout) as smtp:
                if self._use_tls:
                    smtp.starttls(context=ssl.create_default_context())
                if self._username:
                    smtp.login(self._username, self._password or "")
                smtp.send_message(message)
        except (smtplib.SMTPRecipientsRefused, smtplib.SMTPSenderRefused, smtplib.SMTPDataError) as exc:
            # 5xx: the server will not take it, now or later. 4xx is a temporary refusal.
            code = _code(exc)
            if code is not None and code >= 500:
                raise MailRefused(f"{self.host} refused the message ({code})") from exc
            raise MailUnavailable(f"{self.host} deferred the message ({code})") from exc
        except smtplib.SMTPAuthenticationError as exc:
            # Wrong credentials are ours to fix; the message may go once they are.
            raise MailUnavailable(f"{self.host} refused our login ({exc.smtp_code})") from exc
        except (smtplib.SMTPException, OSError) as exc:
            raise MailUnavailable(f"{self.host}:{self.port} unreachable ({type(exc).__name__})") from exc
        log.info("mail sent through %s:%s", self.host, self.port)


def _code(exc: smtplib.SMTPException) -> int | None:
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _ in exc.recipients.values()]
        return max(codes) if codes else None
    return getattr(exc, "smtp_code", None)
