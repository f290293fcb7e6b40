# Two commands do all the setup: `make serve` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CUTLINE_PORT ?= 8000
CUTLINE_DATA_DIR ?= ./data
export CUTLINE_PORT CUTLINE_DATA_DIR

.PHONY: serve test lint typecheck bench clean

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "Python 3.11 is required ($(PYTHON) not found)"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

serve: $(STAMP)
	$(BIN)/cutline serve --dev-key

test: $(STAMP)
	./scripts/provision-test-deps
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy src
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python bench/transcript.py

clean:
	rm -rf $(VENV) data
