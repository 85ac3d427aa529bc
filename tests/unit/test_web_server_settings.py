"""gunicorn.conf.py: the web server's settings from the environment, as gunicorn reads them."""
import runpy
from pathlib import Path

import pytest

CONF = str(Path(__file__).resolve().parents[2] / "gunicorn.conf.py")


def settings(monkeypatch, **env) -> dict:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(CONF)


def test_the_collector_keeps_a_large_young_generation_unless_told_otherwise(monkeypatch):
    monkeypatch.delenv("WEB_GC_THRESHOLD", raising=False)
    assert settings(monkeypatch)["gc_threshold"] == (50000, 20, 10)
    assert settings(monkeypatch, WEB_GC_THRESHOLD="2000, 5, 5")["gc_threshold"] == (2000, 5, 5)
    assert settings(monkeypatch, WEB_GC_THRESHOLD="")["gc_threshold"] is None  # Python's own default


@pytest.mark.parametrize("value", ["fast", "50000,20", "50000,20,10,5", "0,10,10", "-1,10,10", "5e4,20,10"])
def test_a_collector_setting_that_cannot_be_right_stops_the_server_with_what_was_wrong(monkeypatch, value):
    with pytest.raises(SystemExit) as refused:
        settings(monkeypatch, WEB_GC_THRESHOLD=value)
    assert "WEB_GC_THRESHOLD must be three whole numbers" in str(refused.value) and repr(value) in str(refused.value)
