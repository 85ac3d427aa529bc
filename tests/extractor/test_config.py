"""Settings from the environment and the fault-injection plan."""
import pytest

from leadflow.extractor.config import ConfigError, from_env
from leadflow.extractor.faults import Dice, Faults, parse_faults
from tests.extractor.conftest import SECRET


def test_defaults_apply_when_only_the_required_settings_are_given():
    config = from_env({"EXTRACTION_API_KEY": "k", "EXTRACTION_WEBHOOK_SECRET": SECRET})
    assert (config.host, config.port, config.faults) == ("127.0.0.1", 5100, Faults())
    assert (config.workers, config.processes) == (2, 2), "the standalone service reads on every core"


def test_reading_processes_follow_the_threads_unless_set():
    required = {"EXTRACTION_API_KEY": "k", "EXTRACTION_WEBHOOK_SECRET": SECRET}
    assert from_env({**required, "EXTRACTOR_WORKERS": "3"}).processes == 3
    assert from_env({**required, "EXTRACTOR_WORKERS": "3", "EXTRACTOR_PROCESSES": "0"}).processes == 0


@pytest.mark.parametrize("env, words", [
    ({}, "EXTRACTION_API_KEY and EXTRACTION_WEBHOOK_SECRET"),
    ({"EXTRACTION_API_KEY": "k"}, "EXTRACTION_WEBHOOK_SECRET"),
    ({"EXTRACTION_API_KEY": "k", "EXTRACTION_WEBHOOK_SECRET": "plain"}, "whsec_"),
    ({"EXTRACTION_API_KEY": "k", "EXTRACTION_WEBHOOK_SECRET": SECRET, "EXTRACTOR_PORT": "x"}, "integers"),
    ({"EXTRACTION_API_KEY": "k", "EXTRACTION_WEBHOOK_SECRET": SECRET, "EXTRACTOR_PROCESSES": "-1"}, "0 .read"),
    ({"EXTRACTION_API_KEY": "k", "EXTRACTION_WEBHOOK_SECRET": SECRET, "EXTRACTOR_FAULTS": "drop=2"}, "outside"),
])
def test_the_service_refuses_to_start_with_a_clear_message(env, words):
    with pytest.raises(ConfigError, match=words):
        from_env(env)


def test_a_fault_plan_parses_every_kind():
    faults = parse_faults("duplicate=0.2, drop=0.1,delay=0.5:2.0,reorder=0.1,fail_submit=0.1,fail_callback=0.1", "7")
    assert faults == Faults(duplicate=0.2, drop=0.1, delay=(0.5, 2.0), reorder=0.1,
                            fail_submit=0.1, fail_callback=0.1, seed=7)
    assert faults.any and not Faults().any


@pytest.mark.parametrize("spec", ["drop", "drop=x", "explode=0.1", "delay=2:1", "delay=a:b"])
def test_a_bad_fault_plan_is_an_error(spec):
    with pytest.raises(ValueError):
        parse_faults(spec)


def test_the_same_seed_rolls_the_same_faults():
    faults = parse_faults("drop=0.5", "42")
    first, second = Dice(faults), Dice(faults)
    assert [first.roll("drop") for _ in range(50)] == [second.roll("drop") for _ in range(50)]
    assert not Dice(Faults()).roll("drop")
