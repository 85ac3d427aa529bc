"""bench/pipeline.py's arguments: the printed command reproduces the run, a comparison included."""
import pytest

from bench.pipeline import parse_args, reproduce_command


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
