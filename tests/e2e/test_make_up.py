"""`make up` (scripts/up.sh) as a newcomer runs it: a PostgreSQL and a Redis of its own, the
migrations, the demo logins, then web, two workers, the scheduler and the extractor under honcho.
An upload through the JSON API becomes VERIFIED; a Ctrl-C (SIGINT to the foreground process
group) leaves no process behind, PostgreSQL and Redis included; a second start finds the data."""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import requests

from bench._stack import clock_offset_to
from tests.corpus import SAMPLES
from tests.plugins.live import TODAY, Api, free_port, wait_until

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
SETTLED = {"VERIFIED", "REJECTED", "ACTION_REQUIRED"}
# What the test's environment may carry that would point `make up` at other servers.
FOREIGN = ("DATABASE_URL", "REDIS_URL", "S3_BUCKET", "S3_ENDPOINT_URL", "S3_CREATE_BUCKET", "EXTRACTION_URL",
           "EXTRACTION_API_KEY", "EXTRACTION_WEBHOOK_SECRET", "PUBLIC_BASE_URL", "SECRET_KEY", "WEB_BIND",
           "EXTRACTOR_PORT", "LEADFLOW_INSTANCE_DIR", "LEADFLOW_DEMO_PASSWORD", "CI")


class Up:
    """One `scripts/up.sh` run, in a session of its own as a terminal's foreground job would be."""

    def __init__(self, env: dict, log: Path):
        self.env, self.log = env, log
        self.url = f"http://127.0.0.1:{env['UP_PORT']}"
        with open(log, "ab") as out:
            self.process = subprocess.Popen([str(ROOT / "scripts" / "up.sh")], cwd=ROOT, env=env, stdout=out,
                                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                            start_new_session=True)

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_ready(self) -> None:
        def ready():
            assert self.process.poll() is None, f"scripts/up.sh exited early:\n{self.output()[-5000:]}"
            try:
                return requests.get(self.url + "/healthz", timeout=1).status_code == 200
            except requests.RequestException:
                return False
        wait_until(ready, timeout=120, interval=0.2, message="/healthz of `make up`")

    def pids(self) -> set[int]:
        """Every process the run started: honcho's children (each a group of its own: gunicorn's
        and dramatiq's workers are in them), the PostgreSQL and the Redis, and the script's own."""
        up_dir = Path(self.env["UP_DIR"])
        started = {int(pid) for pid in re.findall(r"started \(pid=(\d+)\)", self.output())}
        servers = {int((up_dir / "postgres" / "data" / "postmaster.pid").read_text().split()[0]),
                   int((up_dir / "redis" / "redis.pid").read_text().strip())}
        return started | servers | {self.process.pid}

    def interrupt(self, timeout: float = 60) -> int:
        os.killpg(self.process.pid, signal.SIGINT)  # what a Ctrl-C in the terminal does
        return self.process.wait(timeout)

    def flask(self, *args: str) -> str:
        env = {**self.env, "DATABASE_URL": f"postgresql://postgres@127.0.0.1:{self.env['UP_PG_PORT']}/leadflow",
               "LEADFLOW_INSTANCE_DIR": self.env["UP_DIR"]}
        result = subprocess.run([str(BIN / "flask"), "--app", "app", *args], cwd=ROOT, env=env,
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout


def alive(pids: set[int]) -> list[str]:
    """The processes still running that are one of `pids` or in a process group or session led
    by one of them."""
    left = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        # pid (comm) state ppid pgrp session ...: comm may hold spaces, so split after its ')'.
        pid = int(text.split(" ", 1)[0])
        fields = text.rsplit(")", 1)[1].split()
        state, pgrp, session = fields[0], int(fields[2]), int(fields[3])
        if state != "Z" and (pid in pids or pgrp in pids or session in pids):
            left.append(f"{pid} {text.split(')', 1)[0]})")
    return left


def reap(pids: set[int]) -> None:
    """After a failure, leave nothing running on the shared machine: SIGKILL what is left."""
    for pid in pids:
        for kill in (os.killpg, os.kill):
            try:
                kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


@pytest.fixture
def up_dir():
    """A folder of the run's own straight under the temporary folder: PostgreSQL runs as the
    postgres user when we are root, and pytest keeps its own temporary folders closed to others."""
    folder = Path(tempfile.mkdtemp(prefix="leadflow-up-"))
    folder.chmod(0o711)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def up_env(up_dir):
    env = {key: value for key, value in os.environ.items() if key not in FOREIGN}
    env.update({
        "UP_DIR": str(up_dir / "up"),
        "UP_PORT": str(free_port()), "UP_PG_PORT": str(free_port()), "UP_REDIS_PORT": str(free_port()),
        "UP_EXTRACTOR_PORT": str(free_port()),
        "VENV": str(BIN.parent),  # this test's virtual environment, for the processes too
        # The samples are current on TODAY; on the real date a bank statement would be too old.
        "LEADFLOW_CLOCK_OFFSET_SECONDS": str(clock_offset_to(TODAY)),
    })
    return env


def test_make_up_processes_an_upload_stops_on_ctrl_c_and_finds_its_data_again(up_env, tmp_path):
    seen: set[int] = set()
    try:
        run_twice(up_env, tmp_path, seen)
    finally:
        reap(seen)


def run_twice(up_env, tmp_path, seen: set[int]) -> None:
    up = Up(up_env, tmp_path / "up-1.log")
    try:
        up.wait_ready()
        shown = up.output()
        assert f"LeadFlow (distributed mode) at {up.url}" in shown, shown
        password = re.search(r"password: (\S+)", shown).group(1)
        assert "james@client.example" in shown
        token = up.flask("leadflow", "create-token", "james@client.example").strip()
        client = Api(up.url, token)
        created = client.upload(SAMPLES / "bank-statements" / "synthetic_bank_statement_A1_02.pdf",
                                kind="bank_statement")
        assert created.status_code == 201, created.text
        document_id = created.json()["id"]
        done = client.wait_for_status(document_id, SETTLED, timeout=120)
        assert done["status"] == "VERIFIED", (done, up.output()[-5000:])
        # Two workers, the scheduler, the extractor and web, each named in the interleaved log.
        for name in ("web.1", "worker.1", "worker.2", "scheduler.1", "extractor.1"):
            assert f"{name} started" in up.output()
        pids = up.pids()
        seen |= pids
        client.session.close()
    except BaseException:
        if up.process.poll() is None:
            up.interrupt()
        print(up.output()[-8000:])
        raise

    assert up.interrupt() == 0, up.output()[-5000:]
    assert alive(pids) == []
    stopping = up.output().split("SIGINT received", 1)[1]
    assert "PostgreSQL stopped" in stopping and "Redis stopped" in stopping
    # Cleanly: each worker finished in its own time (a second SIGTERM drops its messages), and
    # nothing waited until honcho killed it.
    assert "Killing worker process" not in stopping and "SIGKILL" not in stopping, stopping
    for name in ("web.1", "worker.1", "worker.2"):
        assert f"{name} stopped (rc=0)" in stopping, stopping

    again = Up(up_env, tmp_path / "up-2.log")
    try:
        again.wait_ready()
        # The same database: the document, the token and the demo password have survived.
        assert again.output().count("creating a PostgreSQL cluster") == 0
        assert f"password: {password}" in again.output()
        client = Api(again.url, token)
        assert client.document(document_id)["status"] == "VERIFIED"
        client.session.close()
        pids = again.pids()
        seen |= pids
    finally:
        if again.process.poll() is None:
            started = time.monotonic()
            assert again.interrupt() == 0, again.output()[-5000:]
            assert time.monotonic() - started < 30
    assert alive(pids) == []
