"""Fault injection for tests and chaos runs: the EXTRACTOR_FAULTS plan and its seeded dice."""
import random
import threading
from dataclasses import dataclass

# Probabilities in [0, 1]; `delay` is a (min, max) range of seconds before a callback.
PROBABILITY_KEYS = ("duplicate", "drop", "reorder", "fail_submit", "fail_callback")


@dataclass(frozen=True)
class Faults:
    duplicate: float = 0.0      # deliver a callback twice (same webhook-id)
    drop: float = 0.0           # never deliver the callback (the deadline sweep must ask)
    delay: tuple[float, float] | None = None  # sleep this long before delivering
    reorder: float = 0.0        # hold a callback back until the next one has gone out
    fail_submit: float = 0.0    # answer POST /jobs with 503 without accepting the job
    fail_callback: float = 0.0  # a delivery attempt fails unsent, so the retry path (same webhook-id) runs
    seed: int | None = None

    @property
    def any(self) -> bool:
        return bool(self.delay) or any(getattr(self, key) for key in PROBABILITY_KEYS)


def parse_faults(spec: str, seed: str | None = None) -> Faults:
    """Parse `duplicate=0.2,drop=0.1,delay=0.5:2.0,...`; raise ValueError naming the bad part."""
    values: dict = {}
    for part in (spec or "").split(","):
        part = part.strip()
        if not part:
            continue
        key, sep, raw = part.partition("=")
        key = key.strip()
        if not sep:
            raise ValueError(f"{part!r} is not key=value")
        if key == "delay":
            low, _, high = raw.partition(":")
            try:
                low_f, high_f = float(low), float(high or low)
            except ValueError:
                raise ValueError(f"delay must be seconds or min:max seconds, got {raw!r}") from None
            if low_f < 0 or high_f < low_f:
                raise ValueError(f"delay range {raw!r} must satisfy 0 <= min <= max")
            values["delay"] = (low_f, high_f)
        elif key in PROBABILITY_KEYS:
            try:
                p = float(raw)
            except ValueError:
                raise ValueError(f"{key} must be a probability, got {raw!r}") from None
            if not 0.0 <= p <= 1.0:
                raise ValueError(f"{key}={raw} is outside [0, 1]")
            values[key] = p
        else:
            raise ValueError(f"unknown fault {key!r} (known: {', '.join(PROBABILITY_KEYS)}, delay)")
    if seed not in (None, ""):
        try:
            values["seed"] = int(seed)
        except ValueError:
            raise ValueError(f"EXTRACTOR_FAULTS_SEED must be an integer, got {seed!r}") from None
    return Faults(**values)


class Dice:
    """Seeded, thread-safe random draws so a chaos run can be replayed with the same seed."""

    def __init__(self, faults: Faults):
        self.faults = faults
        self._random = random.Random(faults.seed)
        self._lock = threading.Lock()

    def roll(self, key: str) -> bool:
        p = getattr(self.faults, key)
        if not p:
            return False
        with self._lock:
            return self._random.random() < p

    def delay_seconds(self) -> float:
        if not self.faults.delay:
            return 0.0
        low, high = self.faults.delay
        with self._lock:
            return self._random.uniform(low, high)
