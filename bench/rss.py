"""Resident memory of LeadFlow's processes over a long run, from /proc, for the soak (bench/soak.py).

A started process and all it forks share one process group (`Stack.start`): a gunicorn arbiter and
its workers, a dramatiq master and its worker processes. A group's RSS is the sum of its members'
VmRSS (/proc/<pid>/status), so a worker replaced by its master still counts, under a new pid. Pages
a fork shares with its parent count in both, as `ps` shows them: the sum overstates what the
machine gives the group, but the same way at every sample, which is what a growth figure needs.
"""
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")
TARGET_GROWTH_PERCENT = 10.0


def vm_rss_kib(status_text: str) -> int | None:
    """VmRSS in KiB from a /proc/<pid>/status text; None for a process without one (a zombie, a
    kernel thread)."""
    for line in status_text.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return None


def group_rss_kib(pgids: dict[str, int], proc: Path = PROC) -> dict[str, tuple[int, list[int]]]:
    """For each named process group: (RSS in KiB summed over its members, each member's RSS in KiB
    in the order of their pids)."""
    wanted = {pgid: name for name, pgid in pgids.items()}
    found = {name: (0, []) for name in pgids}
    for entry in sorted(proc.iterdir(), key=lambda e: int(e.name) if e.name.isdigit() else -1):
        if not entry.name.isdigit():
            continue
        try:
            # Field 5 of stat is the process group; the command name before it may hold spaces.
            pgid = int((entry / "stat").read_text().rpartition(")")[2].split()[2])
            if pgid not in wanted:
                continue
            rss = vm_rss_kib((entry / "status").read_text())
        except (OSError, ValueError, IndexError):
            continue  # exited while we looked
        if rss is not None:
            kib, members = found[wanted[pgid]]
            found[wanted[pgid]] = (kib + rss, members + [rss])
    return found


def growth_percent(settled_kib: int, end_kib: int) -> float:
    """How much a process grew from its size once settled to its size at the end, in percent of the
    settled size (negative when it shrank)."""
    if settled_kib <= 0:
        raise ValueError("a process without resident memory at the settled sample cannot be compared")
    return 100.0 * (end_kib - settled_kib) / settled_kib


@dataclass(frozen=True)
class Row:
    name: str
    settled_kib: int
    end_kib: int
    peak_kib: int

    @property
    def growth(self) -> float:
        return growth_percent(self.settled_kib, self.end_kib)

    def within(self, target: float = TARGET_GROWTH_PERCENT) -> bool:
        return self.growth <= target


def rows_from(samples: list[dict[str, int]], settled_minute: int) -> list[Row]:
    """One row per process from the per-minute samples (sample i taken at minute i; {name: KiB}):
    its size at `settled_minute`, at the last sample, and its largest from `settled_minute` on."""
    if not 0 <= settled_minute < len(samples) - 1:
        raise ValueError(f"need samples after minute {settled_minute}; have minutes 0 to {len(samples) - 1}")
    names = list(samples[0])
    after = samples[settled_minute:]
    return [Row(name, samples[settled_minute][name], samples[-1][name], max(s[name] for s in after))
            for name in names]


def table(rows: list[Row], settled_minute: int, end_minute: int,
          target: float = TARGET_GROWTH_PERCENT) -> str:
    """The soak's memory table: each process's RSS once settled and at the end, its growth against
    the target, and its peak in between."""
    width = max([len(r.name) for r in rows] + [len("process")])
    head_settled, head_end = f"minute {settled_minute}", f"minute {end_minute}"
    lines = [f"  {'process':<{width}}  {head_settled + ' MiB':>13}  {head_end + ' MiB':>14}  {'growth':>8}  "
             f"{'peak MiB':>9}  target <= {target:g}%"]
    for r in rows:
        lines.append(f"  {r.name:<{width}}  {r.settled_kib / 1024:13.1f}  {r.end_kib / 1024:14.1f}  "
                     f"{r.growth:+7.1f}%  {r.peak_kib / 1024:9.1f}  {'met' if r.within(target) else 'MISSED'}")
    return "\n".join(lines)


def minute_line(minute: int, sizes: dict[str, tuple[int, list[int]]]) -> str:
    """One per-minute line: each process's RSS in MiB (and its members' where it forks)."""
    parts = [f"{name} {kib / 1024:.1f} MiB"
             + (f" ({' + '.join(f'{m / 1024:.1f}' for m in members)})" if len(members) > 1 else "")
             for name, (kib, members) in sizes.items()]
    return f"minute {minute:3d}: " + ", ".join(parts)
