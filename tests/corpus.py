"""Where the sample documents live: tests/samples/, inside the repository, so that a clone runs
the tests, the benchmarks and `make eval-extraction` with nothing beside it. Everything that reads
a sample names it through SAMPLES (tests/unit/test_self_contained.py keeps paths inside the
repository); tests/samples/PROVENANCE.md gives each file's source and licence."""
from pathlib import Path

SAMPLES = Path(__file__).resolve().parent / "samples"
