"""The embedded default: each message is written to a folder as an .eml file (one a message,
named by time and a random part), readable with any mail client."""
import logging
import os
import uuid
from datetime import datetime, timezone
from email import message_from_binary_file, policy
from email.utils import getaddresses
from pathlib import Path

from leadflow.mail.message import Mail, MailUnavailable

log = logging.getLogger(__name__)


class FileMailer:
    def __init__(self, directory: Path, *, sender: str):
        self.directory = Path(directory)
        self.sender = sender

    def send(self, mail: Mail) -> None:
        name = f"{datetime.now(timezone.utc):%Y%m%dT%H%M%S%fZ}-{uuid.uuid4().hex[:8]}.eml"
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            # Written beside its name first, then renamed: a reader never sees half a message.
            partial = self.directory / f".{name}.part"
            partial.write_bytes(mail.message(self.sender).as_bytes())
            os.replace(partial, self.directory / name)
        except OSError as exc:
            raise MailUnavailable(f"could not write to the mail folder ({type(exc).__name__})") from exc
        log.info("mail written to %s", self.directory / name)

    def forget(self, address: str) -> int:
        """Delete every message written to `address`: the folder is the embedded mode's outbox and
        keeps the client's address and words after their erasure otherwise."""
        wanted, forgotten = address.strip().casefold(), 0
        for path in sorted(self.directory.glob("*.eml")) if self.directory.is_dir() else []:
            try:
                with path.open("rb") as handle:
                    recipients = message_from_binary_file(handle, policy=policy.default).get_all("To", [])
                if any(a.strip().casefold() == wanted for _, a in getaddresses([str(r) for r in recipients])):
                    path.unlink()
                    forgotten += 1
            except FileNotFoundError:
                continue
        return forgotten
