# `make run` and `make test` each bootstrap .venv on a fresh machine (Python 3.11 + package registries).
# The first Python >= 3.11 on PATH (pyproject's requires-python: tomllib), 3.11 first (the version
# CI runs); `make PYTHON=...` overrides.
PYTHON ?= $(shell for p in python3.11 python3.12 python3.13 python3.14 python3; do \
	  command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
	  2>/dev/null && { echo $$p; break; }; done)
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip install --quiet --disable-pip-version-check -c constraints.txt

.PHONY: run test test-slow regen lint bench notebooks clean browser

$(VENV)/.created:
	@test -n "$(PYTHON)" || { echo "error: no Python 3.11 or newer on PATH (tried python3.11," \
	  "python3.12, python3.13, python3.14, python3); install one or run: make PYTHON=/path/to/python"; \
	  exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	touch $@

$(VENV)/.run: $(VENV)/.created pyproject.toml constraints.txt
	$(PIP) -e .
	touch $@

$(VENV)/.test: $(VENV)/.created pyproject.toml constraints.txt
	$(PIP) -e ".[dev,bench,train,ray,rllib]"
	touch $@ $(VENV)/.run

run: $(VENV)/.run
	$(VENV)/bin/eights tournament --variant crazy_eights --players 2 --agents random,greedy,heuristic,policy \
		--games 300 --out runs/make-run --restart

# The suite starts some hundred Python processes (the docs' commands, servers, bots): each
# compiles what it imports unless bytecode is cached, so a PYTHONDONTWRITEBYTECODE of the
# caller's shell is dropped here (a tenth of the suite's CPU time). Tests of the group "ray"
# run on one worker, which imports Ray once.
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(PY) -m pytest -n 2 --dist loadgroup

# tests/web drive headless Chromium: as root, install Debian's chromium and chromium-driver
# when missing, and make a missing browser fail the browser tests rather than skip them
# (elsewhere they skip, naming what to install)
BROWSER_PACKAGES := chromium chromium-driver

browser:
	@if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get update -qq && apt-get install -y -qq $(BROWSER_PACKAGES); \
	  else echo "note: tests/web's browser tests skip: install $(BROWSER_PACKAGES) (apt-get)"; fi; \
	fi

# numba's kernels are compiled once, up front, a process per variant (about 5 CPU-minutes on a
# fresh clone, 3 s once cached): the suite's workers load them, so no two compile the same
# kernel and the tests' durations are their own
test: $(VENV)/.test browser
	$(VENV)/bin/ruff check eights tests benchmarks examples notebooks
	$(PY) -m eights.vector.warm
	EIGHTS_REQUIRE_BROWSER=$$([ "$$(id -u)" = 0 ] && echo 1) $(PYTEST) -q

# what is too long for `make test` (marked `long`): the attack reproductions, the 200-game option sweeps
test-slow: $(VENV)/.test
	$(PYTEST) -q -m long

# every generated file, made anew from the code; `make test` names this command when one is
# stale. The layout fingerprints come first: a layout that changed under its env version is
# refused (make a new version), never fingerprinted again.
regen: $(VENV)/.test
	$(PY) -m eights.envs.layout
	$(PY) -m eights.envs.pages
	$(PY) -m eights.protocol.schema_views --write
	EIGHTS_UPDATE_PLAYTHROUGHS=1 $(PY) -m pytest -q -p no:randomly -p no:cacheprovider \
		tests/test_playthroughs.py

bench: $(VENV)/.test
	$(PY) benchmarks/throughput.py

# the notebooks run with their full budgets and written back with their outputs
notebooks: $(VENV)/.test
	$(PY) notebooks/run.py

clean:
	rm -rf $(VENV) build *.egg-info
