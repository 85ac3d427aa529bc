"""bench/eval_extraction.py on the layout space: a short run reports the seed that replays it and every table."""
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def run_eval(*args: str, seed: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ}
    env.pop("SEED", None)
    if seed is not None:
        env["SEED"] = seed
    return subprocess.run([sys.executable, "bench/eval_extraction.py", "--quick", "--no-samples", "--ocr-pages", "0",
                           "--jobs", "1", "--types", "payslip,bank_statement,invoice", *args],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=600, check=True)


def test_a_short_run_prints_its_seed_and_the_first_read_tables():
    done = run_eval("--documents", "6", "--packets", "0", seed="4242")
    assert "Seed of this run: 4242" in done.stderr
    out = done.stdout
    assert "# Layouts drawn fresh: seed 4242" in out
    assert "SEED=4242 make eval-extraction" in out
    for heading in ("## First read: type and key fields per type", "## End to end", "## Per field",
                    "## Key fields by axis of the space"):
        assert heading in out
    assert "- Genuine documents REJECTED:" in out
    for kind in ("payslip", "bank_statement", "invoice"):
        assert f"| {kind} | " in out
    assert "6 text_pdf" in out


def test_without_a_seed_a_fresh_one_is_drawn():
    first = run_eval("--documents", "3", "--packets", "0")
    second = run_eval("--documents", "3", "--packets", "0")
    seeds = [line for done in (first, second) for line in done.stderr.splitlines() if line.startswith("Seed of this run")]
    assert len(seeds) == 2 and seeds[0] != seeds[1]


def test_packets_print_their_line_with_the_seed():
    done = run_eval("--documents", "0", "--packets", "2", seed="4242")
    line = next(line for line in done.stdout.splitlines() if line.startswith("packets: "))
    assert line.endswith(" seed=4242")
    figures = dict(part.split("=") for part in line.removeprefix("packets: ").split())
    for name in ("boundary_f1", "documents_exact", "verdicts_same"):
        assert 0.0 <= float(figures[name]) <= 1.0
    assert "# Packets: the splitter on 2 packets drawn with seed 4242" in done.stdout
