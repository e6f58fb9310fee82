# Two commands set everything up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

## demo: install, then decide every saved position of the research corpus
demo: $(STAMP)
	$(BIN)/labyrinth check data/corpus

## test: install, then run the whole suite (heavy checks included)
test: $(STAMP)
	$(BIN)/python -m pytest -n 2

## bench: the oracle and walker benchmarks recorded in reports/BENCHMARKS.md
bench: $(STAMP)
	$(BIN)/python bench/oracle.py
	$(BIN)/python bench/walker.py

clean:
	rm -rf $(VENV) build *.egg-info
