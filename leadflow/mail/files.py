"""The embedded default: each message is written to a folder as an .eml file (one a message,
named by time and a random part), readable with any mail client."""
import logging
import os
import uuid
from datetime import datetime, timezone
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
