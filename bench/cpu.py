"""CPU seconds per process group between two moments, read from /proc, for the benchmarks.

A benchmark's figure that matters is what LeadFlow's own processes spend per document (or per
delivery): the web server, the workers, the scheduler, and the PostgreSQL and Redis work they
cause. The load generator, the S3 server and the extractor share the same cores on this
machine; they are counted apart, as helpers, so that neither they nor an idle core hide or
inflate LeadFlow's share.

Per process: utime + stime from /proc/<pid>/stat, plus cutime + cstime (children that exited
and were reaped by it, e.g. a gunicorn or dramatiq worker that was replaced). Processes are
sampled every `interval` seconds while the meter runs, so one that exits before the end still
counts with its last sample; one reaped by a member of its group counts through the parent's
cutime instead (its own samples are then left out, or it would count twice).

PostgreSQL counts the backends serving the run's database, recognised by their process title
(`postgres: [<cluster>:] <user> <database> <host>(<port>) <state>`), not the whole server, which other
people's tests use at the same time; its background processes (WAL writer, checkpointer) work
for every database and are shown apart, not counted. A backend that exits between two samples
loses at most one interval of its CPU.
"""
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")
TICK = os.sysconf("SC_CLK_TCK")
# The groups whose sum is LeadFlow's CPU; the rest are the benchmark's helpers.
LEADFLOW_GROUPS = ("web", "workers", "scheduler", "PostgreSQL", "Redis")


@dataclass(frozen=True)
class ProcStat:
    """What a benchmark needs from one /proc/<pid>/stat line; times in seconds."""
    pid: int
    comm: str
    ppid: int
    pgid: int
    own: float        # utime + stime
    children: float   # cutime + cstime: reaped children
    started: int      # clock ticks after boot; with the pid, names one process (pids are reused)


def parse_stat(text: str) -> ProcStat:
    """Parse a /proc/<pid>/stat line. The command name sits in parentheses and may itself hold
    spaces and parentheses, so the fields are counted from its last closing parenthesis."""
    head, _, rest = text.rpartition(")")
    pid, _, comm = head.partition(" (")
    fields = rest.split()
    # fields[0] is field 3 of proc(5) (state): ppid is field 4, pgrp 5, utime 14 ... starttime 22.
    utime, stime, cutime, cstime = (int(f) for f in fields[11:15])
    return ProcStat(pid=int(pid), comm=comm, ppid=int(fields[1]), pgid=int(fields[2]),
                    own=(utime + stime) / TICK, children=(cutime + cstime) / TICK, started=int(fields[19]))


def postgres_database(cmdline: bytes) -> str | None:
    """The database a PostgreSQL backend serves, from its process title
    (`postgres: [cluster:] user database 127.0.0.1(5432) idle`); None for any other process."""
    words = cmdline.replace(b"\0", b" ").decode(errors="replace").split()
    if words[:1] != ["postgres:"]:
        return None
    words = words[1:]
    if words and words[0].endswith(":"):  # the cluster's name, when it has one (Debian: `15/main:`)
        words = words[1:]
    if len(words) >= 3 and "(" in words[2]:
        return words[1]
    return None


def read_processes(proc: Path = PROC) -> dict[int, tuple[ProcStat, bytes]]:
    """Every process now: its stat and its command line (empty when it could not be read)."""
    found = {}
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = parse_stat((entry / "stat").read_text())
            cmdline = (entry / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue  # exited while we looked
        found[stat.pid] = (stat, cmdline)
    return found


class Meter:
    """CPU seconds per named group between `start()` and `stop()`.

    `groups` maps a group's name to the process group ids (a started process and all it
    forks: `Stack.processes`); `database` names the PostgreSQL database whose backends count;
    `this_process` adds the load generator (the benchmark itself)."""

    def __init__(self, groups: dict[str, int], database: str | None = None, interval: float = 0.5,
                 this_process: str | None = "load generator (this process)", proc: Path = PROC):
        self.by_pgid = {pgid: name for name, pgid in groups.items()}
        self.database = database
        self.interval = interval
        self.this_process = this_process
        self.proc = proc
        self._first: dict[tuple[int, int], tuple[str, ProcStat]] = {}
        self._last: dict[tuple[int, int], tuple[str, ProcStat]] = {}
        self._background: dict[str, float] = {}
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self.seconds: dict[str, float] = {}
        self.wall = 0.0

    def group_of(self, stat: ProcStat, cmdline: bytes) -> str | None:
        if self.this_process and stat.pid == os.getpid():
            return self.this_process
        if stat.pgid in self.by_pgid:
            return self.by_pgid[stat.pgid]
        if self.database and postgres_database(cmdline) == self.database:
            return "PostgreSQL"
        return None

    def sample(self) -> dict[int, tuple[ProcStat, bytes]]:
        found = read_processes(self.proc)
        for stat, cmdline in found.values():
            group = self.group_of(stat, cmdline)
            if group is None:
                if cmdline.startswith(b"postgres: ") and postgres_database(cmdline) is None:
                    self._background[stat.comm + " " + cmdline.split(b"\0")[0].decode(errors="replace")] = stat.own
                continue
            key = (stat.pid, stat.started)
            self._last[key] = (group, stat)
        return found

    def start(self) -> "Meter":
        self.sample()
        self._first = dict(self._last)
        self._background_first = dict(self._background)
        self._started = time.monotonic()
        self._thread = threading.Thread(target=self._run, name="cpu-meter", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stopping.wait(self.interval):
            self.sample()

    def stop(self) -> dict[str, float]:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join()
        alive = self.sample()
        self.wall = time.monotonic() - self._started
        self.seconds = account(self._first, self._last, alive)
        self.background = sum(self._background.get(k, 0.0) - v for k, v in self._background_first.items())
        return self.seconds

    def __enter__(self) -> "Meter":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


class Rounds:
    """The figures of several meters added up, read like one Meter's (`leadflow_ms`, `report`): a
    benchmark that measures two things in interleaved rounds, so that the machine's drift over
    minutes falls on both alike."""

    def __init__(self, meters: list[Meter]):
        self.seconds: dict[str, float] = {}
        for meter in meters:
            for group, seconds in meter.seconds.items():
                self.seconds[group] = self.seconds.get(group, 0.0) + seconds
        self.wall = sum(meter.wall for meter in meters)
        self.background = sum(meter.background for meter in meters)
        self.database = meters[0].database if meters else None


def account(first: dict, last: dict, alive: dict[int, tuple[ProcStat, bytes]]) -> dict[str, float]:
    """CPU seconds per group from the first and last sample of each process.

    A process present at the start counts from its first sample; one born later from zero.
    Its reaped children count through its `children` figure. A process gone by the end whose
    parent is a live member of the same group was reaped by it: its whole life is in the
    parent's `children`, so only what it had used before the start is taken off."""
    used: dict[str, float] = {}
    for key, (group, end) in last.items():
        start = first.get(key, (group, None))[1]
        own_before = start.own if start else 0.0
        children_before = start.children if start else 0.0
        gone = alive.get(end.pid) is None or alive[end.pid][0].started != end.started
        parent = alive.get(end.ppid)
        parent_key = (end.ppid, parent[0].started) if parent else None
        if gone and parent_key in last and last[parent_key][0] == group:
            used[group] = used.get(group, 0.0) - own_before - children_before
            continue
        used[group] = used.get(group, 0.0) + (end.own - own_before) + (end.children - children_before)
    return used


def leadflow_ms(meter: Meter, units: int) -> float:
    """LeadFlow's CPU milliseconds per unit (document, delivery): the figure that matters."""
    return sum(meter.seconds.get(g, 0.0) for g in LEADFLOW_GROUPS) * 1000 / max(units, 1)


def report(meter: Meter, units: int, unit: str, throughput: str = "", units_name: str | None = None) -> str:
    """The table: seconds and milliseconds per unit for each group, LeadFlow's sum first."""
    seconds = meter.seconds
    leadflow = {g: seconds.get(g, 0.0) for g in LEADFLOW_GROUPS}
    helpers = {g: s for g, s in seconds.items() if g not in LEADFLOW_GROUPS}
    width = max(len(g) for g in [*leadflow, *helpers, "LeadFlow (web + workers + scheduler + PostgreSQL + Redis)"])
    per = f"ms/{unit}"
    lines = [f"CPU seconds over {meter.wall:.1f}s wall ({os.cpu_count()} cores, {units} {units_name or unit + 's'}), from /proc:",
             f"  {'group':<{width}}  {'seconds':>8}  {per:>12}"]

    def row(name: str, value: float | None, note: str = "") -> None:
        if value is None:
            lines.append(f"  {name:<{width}}  {'-':>8}  {'-':>12}  {note}".rstrip())
        else:
            lines.append(f"  {name:<{width}}  {value:8.2f}  {value * 1000 / max(units, 1):12.2f}  {note}".rstrip())

    notes = {"PostgreSQL": f"backends of database {meter.database}" if meter.database else "",
             "Redis": "the run's own redis-server"}
    for group in LEADFLOW_GROUPS:
        row(group, seconds.get(group), notes.get(group, "") if group in seconds else "not running")
    total_leadflow = sum(leadflow.values())
    row("LeadFlow (web + workers + scheduler + PostgreSQL + Redis)", total_leadflow)
    for group, value in sorted(helpers.items(), key=lambda kv: -kv[1]):
        row(group, value, "helper")
    row("helpers", sum(helpers.values()))
    row("all", total_leadflow + sum(helpers.values()),
        f"= {(total_leadflow + sum(helpers.values())) / max(meter.wall, 1e-9):.2f} cores busy on average")
    lines.append(f"  (PostgreSQL's background processes, shared with every database, not counted: "
                 f"{meter.background:.2f}s)")
    lines.append(f"LeadFlow CPU per {unit}: {leadflow_ms(meter, units):.1f} ms"
                 + (f"   beside throughput {throughput}" if throughput else ""))
    return "\n".join(lines)
