# `make run` and `make test` each bootstrap .venv on a fresh machine (Python 3.11 + package registries).
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip install --quiet --disable-pip-version-check -c constraints.txt

.PHONY: run test lint bench clean

$(VENV)/.created:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	touch $@

$(VENV)/.run: $(VENV)/.created pyproject.toml constraints.txt
	$(PIP) -e .
	touch $@

$(VENV)/.test: $(VENV)/.created pyproject.toml constraints.txt
	$(PIP) -e ".[dev,bench,train,ray]"
	touch $@ $(VENV)/.run

run: $(VENV)/.run
	$(VENV)/bin/eights tournament --variant crazy_eights --players 2 --agents random,greedy,heuristic,policy \
		--games 300 --out runs/make-run --restart

test: $(VENV)/.test
	$(VENV)/bin/ruff check eights tests benchmarks
	$(PY) -m pytest -n 2 -q

bench: $(VENV)/.test
	$(PY) benchmarks/throughput.py

clean:
	rm -rf $(VENV) build *.egg-info
