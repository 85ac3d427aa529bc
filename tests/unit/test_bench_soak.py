"""bench/rss.py and bench/soak.py's pure parts: RSS per process group from /proc, growth, the table."""
import threading

import pytest

from bench import rss, soak


def status_text(rss_kib):
    lines = ["Name:\tgunicorn", "State:\tS (sleeping)", "VmPeak:\t  900000 kB"]
    if rss_kib is not None:
        lines.append(f"VmRSS:\t  {rss_kib} kB")
    return "\n".join(lines + ["Threads:\t4"]) + "\n"


def fake_proc(root, processes):
    """processes: pid -> (pgid, VmRSS in KiB or None), as /proc/<pid>/stat and status."""
    for pid, (pgid, kib) in processes.items():
        folder = root / str(pid)
        folder.mkdir()
        # Fields 3.. of proc(5): state, ppid, pgrp, ...; a command name holding ") " must not shift them.
        (folder / "stat").write_text(f"{pid} (dramatiq: (worker) 1) S 1 {pgid} {pgid} 0 -1 0 0 0\n")
        (folder / "status").write_text(status_text(kib))
    (root / "self").mkdir()
    return root


def test_vm_rss_is_read_in_kib_and_is_none_for_a_process_without_it():
    assert rss.vm_rss_kib(status_text(123456)) == 123456
    assert rss.vm_rss_kib(status_text(None)) is None


def test_a_group_s_rss_sums_its_members_and_leaves_other_groups_out(tmp_path):
    proc = fake_proc(tmp_path, {100: (100, 40_000), 101: (100, 160_000), 102: (100, 170_000),
                                200: (200, 150_000), 300: (300, 99_999), 301: (100, None)})
    found = rss.group_rss_kib({"web": 100, "scheduler": 200, "gone": 400}, proc=proc)
    assert found == {"web": (370_000, [40_000, 160_000, 170_000]), "scheduler": (150_000, [150_000]),
                     "gone": (0, [])}


def test_growth_is_the_end_against_the_settled_size_in_percent():
    assert rss.growth_percent(100_000, 110_000) == pytest.approx(10.0)
    assert rss.growth_percent(200_000, 190_000) == pytest.approx(-5.0)
    with pytest.raises(ValueError):
        rss.growth_percent(0, 10)


def test_rows_compare_the_settled_minute_with_the_last_and_keep_the_peak_after_settling():
    samples = [{"web": 300, "scheduler": 100}, {"web": 900, "scheduler": 100},  # start-up peak: ignored
               {"web": 400, "scheduler": 100}, {"web": 460, "scheduler": 101}, {"web": 430, "scheduler": 111}]
    rows = rss.rows_from(samples, settled_minute=2)
    assert [(r.name, r.settled_kib, r.end_kib, r.peak_kib) for r in rows] == [
        ("web", 400, 430, 460), ("scheduler", 100, 111, 111)]
    assert rows[0].growth == pytest.approx(7.5) and rows[0].within()
    assert rows[1].growth == pytest.approx(11.0) and not rows[1].within()
    assert rows[1].within(target=11.0)  # exactly on the target is within it


def test_rows_need_a_sample_after_the_settled_minute():
    with pytest.raises(ValueError):
        rss.rows_from([{"web": 1}, {"web": 2}], settled_minute=1)


def test_the_table_shows_each_process_its_growth_and_whether_it_met_the_target():
    rows = [rss.Row("web", 400 * 1024, 420 * 1024, 425 * 1024), rss.Row("worker-1", 160 * 1024, 180 * 1024, 180 * 1024)]
    text = rss.table(rows, settled_minute=5, end_minute=30).splitlines()
    assert "minute 5" in text[0] and "minute 30" in text[0] and "target <= 10%" in text[0]
    assert text[1].split() == ["web", "400.0", "420.0", "+5.0%", "425.0", "met"]
    assert text[2].split() == ["worker-1", "160.0", "180.0", "+12.5%", "180.0", "MISSED"]


def test_the_minute_line_shows_each_member_of_a_forking_group():
    line = rss.minute_line(7, {"web": (3 * 1024, [1024, 2048]), "scheduler": (1024, [1024])})
    assert line == "minute   7: web 3.0 MiB (1.0 + 2.0), scheduler 1.0 MiB"


def test_the_soak_s_defaults_are_the_issue_s_and_its_count_is_bounded():
    args = soak.parse_args([])
    assert (args.minutes, args.rate, args.live_pages, args.settled_minutes) == (30, 5.0, 200, 5)
    assert soak.command(args) == ".venv/bin/python -m bench.soak"
    assert soak.command(soak.parse_args(["--minutes", "3", "--settled-minutes", "1"])) == \
        ".venv/bin/python -m bench.soak --minutes 3 --settled-minutes 1"
    for wrong in (["--minutes", "3"], ["--minutes", "0"], ["--rate", "0"], ["--rate", "1000", "--minutes", "60"]):
        with pytest.raises(SystemExit):
            soak.parse_args(wrong)


class FakeUploader:
    def __init__(self):
        self.failures = []
        self.calls = []
        self.first = threading.Event()

    def upload(self, index, path, kind):
        self.calls.append((index, path, kind))
        self.first.set()
        return f"doc-{index}"


def test_uploads_send_the_bounded_count_in_turn_over_the_samples():
    uploader = FakeUploader()
    flow = soak.Uploads(uploader, [("a.pdf", "payslip"), ("b.pdf", "invoice")], count=5, rate=1000.0)
    flow.start()
    assert flow.join() == [f"doc-{i}" for i in range(5)]
    assert sorted(uploader.calls) == [(0, "a.pdf", "payslip"), (1, "b.pdf", "invoice"), (2, "a.pdf", "payslip"),
                                      (3, "b.pdf", "invoice"), (4, "a.pdf", "payslip")]
    assert flow.sent == 5


def test_stopped_uploads_start_no_more():
    uploader = FakeUploader()
    flow = soak.Uploads(uploader, [("a.pdf", "payslip")], count=1000, rate=0.001)  # the second due in 1000 s
    flow.start()
    assert uploader.first.wait(10)
    flow.stop()
    assert flow.join() == ["doc-0"]
