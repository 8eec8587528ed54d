# trajtui: `make run` and `make test` are all a new machine needs.
.DEFAULT_GOAL := help
SHELL := /bin/bash

PYTHON ?= python3
VENV   := .venv
# Compiled bytecode is kept (in the venv, not beside the sources), even where the environment
# says not to write it (PYTHONDONTWRITEBYTECODE): without it every test process and every
# `trajtui` a test starts compiles the whole package again (about 0.2 s each, 100 s a suite).
export PYTHONPYCACHEPREFIX := $(CURDIR)/$(VENV)/pycache
unexport PYTHONDONTWRITEBYTECODE
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
# Three test workers per core: a Pilot test spends much of its time waiting for the app to be
# idle, so more workers than cores keep both busy (310 s instead of 342 s with two per core).
WORKERS ?= $(shell $(PYTHON) -c 'import os; print(3 * len(os.sched_getaffinity(0)))' 2>/dev/null || echo 6)

UV     := $(BIN)/uv
# The version of uv that uv.lock locks (it is in the dev group): bootstrapped with pip, its
# hashes checked against the lock, then uv installs exactly what the lock says.
UV_VERSION := $(shell sed -n '/^name = "uv"$$/{n;s/^version = "\(.*\)"$$/\1/p;}' uv.lock)
# uv uses this interpreter and never downloads one of its own.
export UV_PYTHON_DOWNLOADS := never

$(STAMP): pyproject.toml uv.lock
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "trajtui needs Python >= 3.11 (set PYTHON=...)"; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@test "$$($(UV) --version 2>/dev/null)" = "uv $(UV_VERSION)" || { \
	  $(PYTHON) .ci/uv_requirement.py uv.lock > $(VENV)/uv-requirement.txt && \
	  $(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --require-hashes -r $(VENV)/uv-requirement.txt; }
	@$(UV) sync --locked --quiet --python $(BIN)/python || { echo "make: uv.lock does not match pyproject.toml: run 'make lock' and commit uv.lock"; exit 1; }
	@touch $(STAMP)

.PHONY: lock
lock: $(STAMP) ## Update uv.lock after pyproject.toml changed (versions already locked stay)
	$(UV) lock

.PHONY: help
help: ## List the targets
	@grep -hE '^[a-zA-Z_-]+:.*?## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*?## "}; {printf "  make %-12s %s\n", $$1, $$2}'

.PHONY: venv
venv: $(STAMP) ## Create .venv and install trajtui with its test and lint tools

.PHONY: run
run: $(STAMP) ## Set up, then open the bundled demo data in the TUI
	$(BIN)/trajtui --demo

.PHONY: test
test: $(STAMP) ## Set up, then check the lock, lint (ruff, mypy, import layers) and run every test
	@$(UV) lock --check --quiet || { echo "make test: uv.lock does not match pyproject.toml: run 'make lock' and commit uv.lock"; exit 1; }
	$(MAKE) --no-print-directory checks CHECK_BIN=$(BIN)

# The checks themselves, run with the tools in CHECK_BIN (the locked venv, or upgrade-check's).
CHECK_BIN ?= $(BIN)
.PHONY: checks
checks:
	$(CHECK_BIN)/ruff check trajtui tests
	$(CHECK_BIN)/ruff format --check trajtui tests
	$(CHECK_BIN)/mypy
	$(CHECK_BIN)/lint-imports --no-cache
	$(CHECK_BIN)/python -m pytest -q -n $(WORKERS) --dist worksteal

.PHONY: upgrade-check
upgrade-check: $(STAMP) ## Install the newest versions pyproject.toml allows into a throwaway venv and run every check there (not in make test)
	@set -e; d=$$(mktemp -d); trap 'rm -rf "$$d"' EXIT; \
	$(UV) venv --quiet --python $(BIN)/python "$$d/venv"; \
	$(UV) pip install --quiet --python "$$d/venv/bin/python" --upgrade -e . --group dev; \
	$(UV) export --frozen --no-hashes --no-emit-project --all-groups --quiet | grep -E '^[A-Za-z0-9_.-]+==' | sed 's/ *;.*//' > "$$d/locked.txt"; \
	$(UV) pip freeze --quiet --python "$$d/venv/bin/python" --exclude-editable > "$$d/newest.txt"; \
	echo "make upgrade-check: newer than uv.lock:"; \
	awk -F'==' 'function k(n) { n = tolower(n); gsub(/[_.]/, "-", n); return n } NR == FNR { v[k($$1)] = $$2; next } (k($$1) in v) && v[k($$1)] != $$2 { print "  " $$1 " " v[k($$1)] " -> " $$2; n++ } END { if (!n) print "  nothing: the lock has the newest allowed versions" }' "$$d/locked.txt" "$$d/newest.txt"; \
	$(MAKE) --no-print-directory checks CHECK_BIN="$$d/venv/bin" PYTHONPYCACHEPREFIX="$$d/pycache"
	$(MAKE) --no-print-directory upstream-check

# inspect-ai and mini-swe-agent are not trajtui dependencies (never in pyproject.toml or the
# lock): their newest versions go into a venv of their own, which writes the logs the check reads.
UPSTREAM_PACKAGES ?= inspect-ai mini-swe-agent
.PHONY: upstream-check
upstream-check: $(STAMP) ## Run the newest inspect-ai and mini-swe-agent offline (throwaway venv) and check trajtui counts what they read from their fresh logs (in upgrade-check, not in make test)
	@set -e; d=$$(mktemp -d); trap 'rm -rf "$$d"' EXIT; \
	$(UV) venv --quiet --python $(BIN)/python "$$d/venv"; \
	$(UV) pip install --quiet --python "$$d/venv/bin/python" --upgrade $(UPSTREAM_PACKAGES); \
	echo "make upstream-check: $$($(UV) pip freeze --quiet --python "$$d/venv/bin/python" | grep -iE '^(inspect-ai|inspect_ai|mini-swe-agent)==' | tr '\n' ' ')"; \
	TRAJTUI_UPSTREAM_PYTHON="$$d/venv/bin/python" $(BIN)/python -m pytest -q -p no:randomly -p no:cacheprovider tests/upstream

# pyspark is not a trajtui dependency: its newest version goes into a venv of its own, and
# Java from Debian's packages (pyspark 4 wants 17 or newer) is installed only when missing.
SPARK_PACKAGES ?= pyspark
.PHONY: spark-check
spark-check: $(STAMP) ## Read the exported tables of the real samples and every format's example with Spark (pyspark in local mode, throwaway venv): the same types and rows as DuckDB, the counts of ls and stats, the README's questions (in scale-check, not in make test)
	@set -e; jv=$$(java -version 2>&1 | sed -n 's/.* version "\([0-9]*\).*/\1/p' | head -1); \
	if [ -z "$$jv" ] || [ "$$jv" -lt 17 ]; then \
	  echo "make spark-check: Java 17 or newer is missing: apt-get install openjdk-17-jre-headless"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless >/dev/null; \
	fi; \
	d=$$(mktemp -d); trap 'rm -rf "$$d"' EXIT; \
	$(UV) venv --quiet --python $(BIN)/python "$$d/venv"; \
	$(UV) pip install --quiet --python "$$d/venv/bin/python" --upgrade $(SPARK_PACKAGES); \
	echo "make spark-check: $$($(UV) pip freeze --quiet --python "$$d/venv/bin/python" | grep -iE '^pyspark==' | tr '\n' ' ')$$(java -version 2>&1 | head -1)"; \
	TRAJTUI_SPARK_PYTHON="$$d/venv/bin/python" $(BIN)/python -m pytest -q -p no:randomly -p no:cacheprovider tests/spark

.PHONY: lint
lint: $(STAMP) ## Lint, type-check and check import layers only
	$(BIN)/ruff check trajtui tests
	$(BIN)/ruff format --check trajtui tests
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

.PHONY: format
format: $(STAMP) ## Reformat the code with ruff
	$(BIN)/ruff format trajtui tests
	$(BIN)/ruff check --fix trajtui tests

HUGE_GB ?= 2
SCALE_GB ?= 20
.PHONY: bench
bench: $(STAMP) ## Benchmark on generated 1 GB and HUGE_GB (2) GB captures, the hostile cases, over HTTP and S3 on 127.0.0.1, and beside toolong and lnav (not part of make test)
	$(BIN)/python -m tests.bench.run_bench
	$(BIN)/python -m tests.bench.targets
	$(BIN)/python -m tests.bench.huge_bench --size-gb $(HUGE_GB)
	$(BIN)/python -m tests.bench.session_bench --size-gb $(HUGE_GB)
	$(BIN)/python -m tests.bench.tui_bench
	$(BIN)/python -m tests.bench.hostile_bench
	$(BIN)/python -m tests.bench.grep_bench
	$(BIN)/python -m tests.bench.align_bench
	$(BIN)/python -m tests.bench.inspect_bench
	$(BIN)/python -m tests.bench.codex_bench --size-gb $(HUGE_GB)
	$(BIN)/python -m tests.bench.traj_bench
	$(BIN)/python -m tests.bench.traj_bench --size-gb 1
	$(BIN)/python -m tests.bench.atif_bench --size-gb 0.125 1
	$(BIN)/python -m tests.bench.parquet_bench --size-mb 1024
	$(BIN)/python -m tests.bench.remote_bench --size-mb 1024
	$(BIN)/python -m tests.bench.stats_bench --size-mb 1024
	@test -x .venv-bench/bin/tl || { $(PYTHON) -m venv .venv-bench && .venv-bench/bin/python -m pip install --quiet toolong; } || echo "toolong could not be installed: not compared"
	@command -v lnav >/dev/null || echo "lnav is not installed (Debian: apt install lnav): not compared"
	$(BIN)/python -m tests.bench.compare_bench

.PHONY: scale-check
scale-check: $(STAMP) ## A 20 GB Codex rollout (written under TMPDIR, then deleted): ls and the TUI's first screen, time and peak memory, beside wc -l (about 20 minutes; not part of make bench); then make spark-check
	$(BIN)/python -m tests.bench.codex_scale --size-gb $(SCALE_GB)
	$(MAKE) --no-print-directory spark-check

.PHONY: remote-check
remote-check: $(STAMP) ## trajtui over a real OpenSSH sshd on 127.0.0.1 (installs openssh-server with apt-get when missing; keys and config in a temp dir; not in make test)
	$(BIN)/python -m tests.e2e.sshd_check

.PHONY: screenshots
screenshots: $(STAMP) ## Write an SVG of each pane into screenshots/
	$(BIN)/python -m tests.snapshots.screenshots

.PHONY: snapshots-update
snapshots-update: $(STAMP) ## Re-record the snapshot tests' SVGs after a deliberate UI change
	$(BIN)/python -m pytest -q tests/snapshots/test_snapshots.py --snapshot-update

.PHONY: clean
clean: ## Remove the venv and caches
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache build dist *.egg-info
