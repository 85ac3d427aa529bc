"""bench/pipeline.py's arguments: the printed command reproduces the run, a comparison included;
LeadFlow on cores of its own (`--own-cores`) pins its processes and leaves the helpers a core."""
import os
import subprocess
import sys

import pytest

from bench._stack import Stack, pinned_to
from bench.pipeline import helpers_on, parse_args, reproduce_command


def test_the_reproduce_command_names_a_comparison_and_its_rounds():
    args = parse_args(["--documents", "500", "--against", "b6dba67", "--rounds", "2"])
    command = reproduce_command(args)
    assert command == ".venv/bin/python -m bench.pipeline --documents 500 --against b6dba67 --rounds 2"
    assert parse_args(command.split()[3:]) == args


def test_a_single_run_reproduces_without_comparison_flags():
    assert reproduce_command(parse_args(["--documents", "500"])) == ".venv/bin/python -m bench.pipeline --documents 500"


@pytest.mark.parametrize("argv", [["--rounds", "2"], ["--against", "b6dba67", "--rounds", "0"]])
def test_rounds_without_a_revision_to_compare_or_below_one_are_refused(argv, capsys):
    with pytest.raises(SystemExit) as refused:
        parse_args(argv)
    assert refused.value.code == 2
    assert "--rounds" in capsys.readouterr().err


def test_comparing_a_revision_with_itself_is_refused(capsys):
    with pytest.raises(SystemExit) as refused:
        parse_args(["--against", "b6dba67", "--source", "b6dba67"])
    assert refused.value.code == 2
    assert "--against names the same code as --source" in capsys.readouterr().err


def test_own_cores_must_leave_the_helpers_a_core(capsys):
    cores = len(os.sched_getaffinity(0))
    for refused in (cores, -1):
        with pytest.raises(SystemExit) as stopped:
            parse_args(["--own-cores", str(refused)])
        assert stopped.value.code == 2
        assert "--own-cores must leave the helpers at least one" in capsys.readouterr().err
    args = parse_args(["--documents", "500", "--own-cores", str(cores - 1)])
    assert args.own_cores == cores - 1
    assert parse_args(reproduce_command(args).split()[3:]) == args


def test_a_pinned_child_runs_only_on_the_cpus_it_was_given():
    cpu = min(os.sched_getaffinity(0))
    child = subprocess.run([sys.executable, "-c", "import os; print(sorted(os.sched_getaffinity(0)))"],
                           capture_output=True, text=True, check=True, preexec_fn=pinned_to({cpu}))
    assert child.stdout.strip() == f"[{cpu}]"
    assert pinned_to(frozenset()) is None  # no pinning asked for: the child may use every CPU


def test_the_load_generator_is_pinned_for_the_block_only():
    before = os.sched_getaffinity(0)
    cpu = min(before)
    with helpers_on(frozenset({cpu})):
        assert os.sched_getaffinity(0) == {cpu}
    assert os.sched_getaffinity(0) == before


def test_cpus_of_its_own_need_a_database_and_redis_of_the_runs_own():
    # The machine's PostgreSQL and Redis serve everyone's tests: pinning them is not the run's to do.
    with pytest.raises(ValueError, match="needs a PostgreSQL and a Redis of the run's own"):
        Stack("bench", own_cpus=frozenset({0}), private_redis=True)
