# Two commands set everything up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test docs-check bench browser engines screenshots clean

CHROMIUM ?= /usr/bin/chromium

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

## demo: install, compile every numba kernel once (a few minutes the first time, seconds after), then decide
## every saved position of the research corpus
demo: $(STAMP)
	$(BIN)/labyrinth warmup --jobs 2
	$(BIN)/labyrinth check data/corpus
	@echo "ready: 'source $(VENV)/bin/activate' puts labyrinth on your PATH (or run $(BIN)/labyrinth); see README.md"

## browser: Debian's Chromium (and cairo, for `labyrinth draw --png`) for the viewer's end-to-end test;
## a no-op where installed; where it cannot be installed the test skips (under CI it fails)
browser:
	@if [ -x $(CHROMIUM) ]; then :; \
	elif command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium libcairo2 >/dev/null) \
	    || echo "note: could not install chromium: the browser test will skip"; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then \
	  (sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium libcairo2 >/dev/null) \
	    || echo "note: could not install chromium: the browser test will skip"; \
	else echo "note: no chromium and no root to install it: the browser test will skip"; fi

## engines: a C compiler (`cc`), Node.js and Mono (`mcs`, `mono`) for the reference rule engines of
## examples/engines/, which the tests build and audit (tests/test_engine_protocol.py); detected with `command -v`,
## installed with apt-get (gcc, nodejs, mono-mcs, mono-runtime) where missing and possible; the tests fail, naming
## the missing tool, otherwise. Where `mcs` is present it builds the C# engines into out/ (out/corners.exe,
## out/stateful.exe: `mono out/corners.exe`)
CS := examples/engines/Protocol.cs
engines:
	@if command -v cc >/dev/null 2>&1 && command -v node >/dev/null 2>&1 && command -v mcs >/dev/null 2>&1 \
	   && command -v mono >/dev/null 2>&1; then :; \
	elif command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc nodejs mono-mcs mono-runtime >/dev/null) \
	    || echo "note: could not install gcc/nodejs/mono: the engine tests will fail"; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then \
	  (sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc nodejs mono-mcs mono-runtime >/dev/null) \
	    || echo "note: could not install gcc/nodejs/mono: the engine tests will fail"; \
	else echo "note: one of cc, node, mcs, mono is missing and there is no root to install it: the engine tests will fail"; fi
	@if command -v mcs >/dev/null 2>&1; then \
	  mkdir -p out && mcs -langversion:7 -out:out/corners.exe examples/engines/corners.cs $(CS) >/dev/null \
	  && mcs -langversion:7 -out:out/stateful.exe examples/engines/stateful.cs $(CS) >/dev/null; fi

## test: install, lint (ruff: pyflakes, import order, the pycodestyle errors that matter; its settings in
## pyproject.toml), then run the whole suite (heavy checks and the browser test included)
test: $(STAMP) browser engines
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n 2

## docs-check: the commands of README.md and docs/ parse, write under out/ and can run in reading order (no two
## write one file or start one campaign), and the quick ones run as shown
docs-check: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 tests/test_docs_commands.py tests/test_readme.py

## screenshots: refresh the README's pictures (reports/viewer.png, reports/report.png) in headless Chromium
screenshots: $(STAMP) browser
	LABYRINTH_SCREENSHOTS=reports $(BIN)/python -m pytest -q tests/test_browser.py

## bench: the oracle, walker, verifier, counting, toggle-squares and engine benchmarks recorded in
## reports/BENCHMARKS.md (bench/engine_order.py needs Mono: `make engines`)
bench: $(STAMP) engines
	$(BIN)/python bench/oracle.py
	$(BIN)/python bench/walker.py
	$(BIN)/python bench/audit.py
	$(BIN)/python bench/count.py
	$(BIN)/python bench/toggle.py
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/engine_order.py

clean:
	rm -rf $(VENV) build *.egg-info
