# LeadFlow. `make run` serves the product on this machine; `make up` runs it in the distributed
# mode (scripts/up.sh); `make test` runs the whole suite.
# Both set up everything they need first (virtual environment, Debian packages).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
FLASK := $(VENV)/bin/flask --app app
PYBABEL := $(VENV)/bin/pybabel
# The catalogs' compiled form, committed and rebuilt here whenever a .po is newer.
CATALOGS := $(patsubst %.po,%.mo,$(wildcard translations/*/LC_MESSAGES/messages.po))
PORT ?= 5000
HOST ?= 127.0.0.1
# The suite runs in this many processes (pytest-xdist); 0 runs it in this one.
TEST_PROCESSES ?= 2

.PHONY: run up test eval-extraction system-run system-test system-up services clean i18n-extract i18n-update i18n-compile

$(VENV)/.runtime: requirements.txt requirements-extractor.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt
	touch $@

$(VENV)/.dev: $(VENV)/.runtime requirements-dev.txt
	$(PY) -m pip install -q -r requirements-dev.txt
	touch $@

system-run:
	scripts/install-system-packages.sh run

system-test:
	scripts/install-system-packages.sh test

system-up:
	scripts/install-system-packages.sh up

services:
	scripts/ensure-services.sh

run: $(VENV)/.runtime system-run $(CATALOGS)
	$(FLASK) db upgrade
	$(FLASK) leadflow demo
	$(FLASK) leadflow serve --host $(HOST) --port $(PORT)

# The distributed mode on this machine: a PostgreSQL (UP_PG_PORT, 5433) and a Redis (UP_REDIS_PORT,
# 6380) of its own with their data under instance/up (UP_DIR), then web (UP_PORT, 8000), two workers,
# the scheduler and the extractor from the Procfile under honcho. Ctrl-C stops them all.
up: $(VENV)/.runtime system-up $(CATALOGS)
	scripts/up.sh

test: $(VENV)/.dev system-test services $(CATALOGS)
	$(PY) -m pytest -q -p no:cacheprovider -n $(TEST_PROCESSES)

# The words: message ids from the code and templates (babel.cfg) into translations/messages.pot,
# merged into each language's .po (translate the new entries there), compiled to .mo.
i18n-extract: $(VENV)/.runtime
	$(PYBABEL) -q extract -F babel.cfg --no-wrap --sort-by-file --add-location=file -o translations/messages.pot .

i18n-update: i18n-extract
	$(PYBABEL) -q update -i translations/messages.pot -d translations --no-wrap

i18n-compile: $(VENV)/.runtime
	$(PYBABEL) -q compile -d translations --statistics

translations/%/LC_MESSAGES/messages.mo: translations/%/LC_MESSAGES/messages.po $(VENV)/.runtime
	$(PYBABEL) -q compile -d translations -l $*

# The first read on layouts drawn fresh from bench/layout_space (a new seed each run, printed;
# SEED=n replays one), end-to-end verdicts, OCR time against the tesseract command, then every
# file in tests/samples. EVAL_ARGS="--documents 120", "--quick" or "--types payslip --misses".
eval-extraction: $(VENV)/.dev system-run
	SEED=$(SEED) $(PY) bench/eval_extraction.py $(EVAL_ARGS)

# Workers SIGKILLed, Redis restarted, a faulty extractor: nothing lost, stuck or done twice.
# CHAOS_ARGS="--documents 500 --seed 7" raises the scale or replays a run.
.PHONY: chaos
chaos: $(VENV)/.dev services
	$(PY) -m bench.chaos $(CHAOS_ARGS)

# 2,000 documents through the distributed mode with an instant extractor, next to a bare Dramatiq
# no-op actor on the same Redis. BENCH_ARGS="--documents 200" for a quick run.
.PHONY: bench-pipeline
bench-pipeline: $(VENV)/.dev services
	$(PY) -m bench.pipeline $(BENCH_ARGS)

# Signed callbacks for real jobs (a fifth duplicates) against gunicorn on PostgreSQL and Redis, next to
# a bare signed endpoint without database work, in one run; CPU per delivery from /proc (bench/cpu.py).
# BENCH_ARGS="--deliveries 500" for a quick run.
.PHONY: bench-callbacks
bench-callbacks: $(VENV)/.dev services
	$(PY) -m bench.callbacks $(BENCH_ARGS)

# The dashboard of the largest of 1,000 brokerages (a fifth of the documents): first page, every filter,
# searches and counts, p50/p95 server time inside the app. Seeds a PostgreSQL database of its own per
# size once (kept; --fresh starts over). DASHBOARD_ARGS="--documents 10000000" for the full scale
# (15 minutes to seed here, 10 GB), "--documents 1000000" for a quicker one (half a minute).
.PHONY: bench-dashboard
bench-dashboard: $(VENV)/.runtime services
	$(PY) -m bench.dashboard $(DASHBOARD_ARGS)

# Each sweep's pass over an idle history of 10 million documents (with their jobs, callbacks and
# reservations), then 10,000 stuck documents recovered. SWEEPS_ARGS="--documents 1000000" for a
# quicker run; the database (leadflow_bench_sweeps) is kept between runs, --fresh seeds again (20 minutes here).
.PHONY: bench-sweeps
bench-sweeps: $(VENV)/.runtime services
	$(PY) -m bench.sweeps $(SWEEPS_ARGS)

# 1,000 sockets, each an advisor of one brokerage, on one gunicorn gevent worker while documents
# flow at about 20 status events/s: commit-to-frame p50/p99, /healthz p50/p99, the web process's
# CPU. LIVE_ARGS="--sockets 200 --seconds 10" for a quick run.
.PHONY: bench-live
bench-live: $(VENV)/.dev services
	$(PY) -m bench.live $(LIVE_ARGS)

# Upload-to-verdict of 3-page scans at one upload a second through the distributed mode with the real
# extraction service (OCR): p50/p95. SCAN_VERDICT_ARGS="--seconds 30" for a quick run.
.PHONY: bench-scan-verdict
bench-scan-verdict: $(VENV)/.dev services
	$(PY) -m bench.scan_verdict $(SCAN_VERDICT_ARGS)

# 30 minutes at 5 uploads/s with 200 live pages open: each process's RSS every minute, and its growth
# after the first five minutes against 10%; exits 1 past it. SOAK_ARGS="--minutes 3 --settled-minutes 1"
# for a quick look.
.PHONY: bench-soak
bench-soak: $(VENV)/.dev services
	$(PY) -m bench.soak $(SOAK_ARGS)

clean:
	rm -rf $(VENV) instance .pytest_cache
