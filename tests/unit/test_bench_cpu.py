"""bench/cpu.py: reading /proc/<pid>/stat and adding CPU up per process group."""
from pathlib import Path

from pytest import approx

from bench import cpu

TICK = cpu.TICK


def stat_line(pid, comm, ppid, pgid, utime, stime, cutime=0, cstime=0, started=1000):
    # Fields 3..22 of proc(5); the ones bench/cpu.py does not read are filler.
    rest = ["S", ppid, pgid, pgid, 0, -1, 4194560, 0, 0, 0, 0, utime, stime, cutime, cstime, 20, 0, 1, 0, started]
    return f"{pid} ({comm}) " + " ".join(str(f) for f in rest) + " 1000 200 0\n"


def test_a_stat_line_gives_its_times_in_seconds_and_its_group():
    stat = cpu.parse_stat(stat_line(4321, "gunicorn", 4300, 4300, utime=3 * TICK, stime=TICK,
                                    cutime=2 * TICK, cstime=TICK, started=777))
    assert (stat.pid, stat.comm, stat.ppid, stat.pgid, stat.started) == (4321, "gunicorn", 4300, 4300, 777)
    assert (stat.own, stat.children) == (4.0, 3.0)


def test_a_command_name_with_spaces_and_parentheses_does_not_shift_the_fields():
    stat = cpu.parse_stat(stat_line(55, "dramatiq: (worker) 2)", 1, 50, utime=TICK, stime=0))
    assert (stat.comm, stat.ppid, stat.pgid, stat.own) == ("dramatiq: (worker) 2)", 1, 50, 1.0)


def test_a_backend_s_process_title_names_its_database():
    assert cpu.postgres_database(b"postgres: postgres leadflow_bench_1 127.0.0.1(5432) idle\0") == "leadflow_bench_1"
    assert cpu.postgres_database(b"postgres: 15/main: postgres run_db 127.0.0.1(5432) idle\0") == "run_db"
    assert cpu.postgres_database(b"postgres: 15/main: checkpointer   \0") is None
    assert cpu.postgres_database(b"postgres: 15/main: walwriter   \0") is None
    assert cpu.postgres_database(b"/usr/bin/redis-server\x00127.0.0.1:6379\0") is None


def write_proc(root: Path, processes: dict[int, tuple[str, bytes]]):
    for old in root.glob("*/*"):
        old.unlink()
    for pid, (stat, cmdline) in processes.items():
        (root / str(pid)).mkdir(exist_ok=True)
        (root / str(pid) / "stat").write_text(stat)
        (root / str(pid) / "cmdline").write_bytes(cmdline)
    for folder in root.iterdir():
        if int(folder.name) not in processes:
            folder.rmdir()


def test_the_meter_counts_each_group_its_run_database_and_reaped_children_once(tmp_path):
    pg = b"postgres: postgres run_db 127.0.0.1(40000) idle\0"
    other_pg = b"postgres: postgres someone_else 127.0.0.1(40001) idle\0"
    # At the start: gunicorn's master (group 100) and a worker; a backend of the run's database;
    # a backend of someone else's; an unrelated process.
    write_proc(tmp_path, {
        100: (stat_line(100, "gunicorn", 1, 100, 10, 0, started=5), b"gunicorn\0"),
        101: (stat_line(101, "gunicorn", 100, 100, 50, 0, started=6), b"gunicorn\0"),
        200: (stat_line(200, "postgres", 90, 90, 20, 0, started=7), pg),
        201: (stat_line(201, "postgres", 90, 90, 20, 0, started=7), other_pg),
        300: (stat_line(300, "bash", 1, 300, 500, 0, started=8), b"bash\0"),
    })
    meter = cpu.Meter({"web": 100}, database="run_db", this_process=None, proc=tmp_path)
    meter.start()
    meter._stopping.set()  # no sampling thread: the test takes the samples
    meter._thread.join()
    # Mid-run: the worker has used 30 more ticks, the backend 5.
    write_proc(tmp_path, {
        100: (stat_line(100, "gunicorn", 1, 100, 10, 0, started=5), b"gunicorn\0"),
        101: (stat_line(101, "gunicorn", 100, 100, 80, 0, started=6), b"gunicorn\0"),
        200: (stat_line(200, "postgres", 90, 90, 25, 0, started=7), pg),
        201: (stat_line(201, "postgres", 90, 90, 99, 0, started=7), other_pg),
    })
    meter.sample()
    # At the end: the worker exited after 100 ticks in all and was reaped by the master, whose
    # children's figure now holds them; a new worker used 7; the backend exited.
    write_proc(tmp_path, {
        100: (stat_line(100, "gunicorn", 1, 100, 12, 0, cutime=100, started=5), b"gunicorn\0"),
        102: (stat_line(102, "gunicorn", 100, 100, 7, 0, started=9), b"gunicorn\0"),
        300: (stat_line(300, "bash", 1, 300, 900, 0, started=8), b"bash\0"),
    })
    seconds = meter.stop()
    # web: master 2 own + 100 reaped - 50 the old worker had used before the start + new worker 7.
    assert seconds["web"] == approx((2 + 100 - 50 + 7) / TICK)
    # PostgreSQL: the run database's backend up to its last sample; not someone else's.
    assert seconds["PostgreSQL"] == approx(5 / TICK)
    assert set(seconds) == {"web", "PostgreSQL"}
    assert cpu.leadflow_ms(meter, 10) == approx((2 + 100 - 50 + 7 + 5) / TICK * 1000 / 10)
    table = cpu.report(meter, 10, "document", "3.0 documents/s")
    assert "LeadFlow CPU per document:" in table and "backends of database run_db" in table
