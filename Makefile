# The README's two commands: `make solve PROBLEM=nlp4lp/12 LLM=reference` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PROBLEM ?=
LLM ?=
ARGS ?=

.PHONY: install solve test lint sandbox-image bench bench-sandbox

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

solve: install
	@test -n "$(PROBLEM)" || { echo "usage: make solve PROBLEM=path/to/problem [LLM=reference|openai] [ARGS=...]"; exit 2; }
	$(BIN)/optimus solve $(PROBLEM) $(if $(LLM),--llm $(LLM)) $(ARGS)

test: install
	$(BIN)/pytest -q

lint: install
	$(BIN)/ruff check optimus tests nlp4lp bench

sandbox-image:
	sandbox/build-image.sh

bench-sandbox: install
	$(BIN)/python bench/bench_sandbox.py

# The ablation offline: every nlp4lp problem under every mode, without and with injected faults.
# Outputs in results/bench-*/ (results.jsonl, summary.md, summary.png); a rerun resumes.
bench: install
	$(BIN)/optimus bench nlp4lp --llm reference --faults none --jobs 2 --sandbox bwrap --timeout 10 --rephrasings 1 --out results/bench-clean
	$(BIN)/optimus bench nlp4lp --llm reference --faults all --seed 0 --jobs 2 --sandbox bwrap --timeout 10 --rephrasings 1 --out results/bench-faults
