# Runecodex: `make serve` sets up and runs the app; `make test` sets up and runs every test.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# where `make serve` listens: `make serve PORT=8080`, or PORT / HOST in the environment
HOST ?= 127.0.0.1
PORT ?= 8000
export HOST PORT

.PHONY: serve test setup system-deps lint bench site load clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

# System libraries: WeasyPrint's text shaping, poppler for PDF checks, graphviz for graph pictures,
# Debian's Chromium for the browser tests. Installed only when missing (needs root, as on CI).
system-deps:
	@bash scripts/system-deps.sh

serve: system-deps $(STAMP)
	$(BIN)/runecodex serve --host "$$HOST" --port "$$PORT"

test: system-deps $(STAMP)
	$(BIN)/ruff check engine webapp tests bench
	$(BIN)/mypy
	$(BIN)/runecodex check
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check engine webapp tests bench
	$(BIN)/mypy

# The Sphinx site (build/site/) and the search index; -W and nitpicky, incremental after the first run.
site: system-deps $(STAMP)
	$(BIN)/runecodex build

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

# 32 clients for 30 s against a server started on loopback (reports req/s, p50/p95/p99, errors)
load: $(STAMP)
	$(BIN)/python bench/load.py

clean:
	rm -rf build _build site/_generated .pytest_cache .mypy_cache .ruff_cache
