# The README's two commands: `make solve PROBLEM=nlp4lp/12 LLM=reference` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PROBLEM ?=
LLM ?=
ARGS ?=

.PHONY: install solve test test-under-load lint sandbox-image bench bench-sandbox bench-scale

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

# CI's load step: the hostile-code and timing-sensitive tests beside 50 busy processes of the sandbox's uid
# (spinning and forking; tests/load.py starts them and kills them however it ends).
# CI keeps to these files (about 20 min beside the load) so that it stays well under 40 min in all.
UNDER_LOAD := tests/test_sandbox_hostile.py tests/test_bench.py tests/test_bench_options.py tests/test_startup.py
test-under-load: install
	$(BIN)/python -m tests.load --procs 50 -- $(BIN)/pytest -q -p no:cacheprovider $(UNDER_LOAD)

lint: install
	$(BIN)/ruff check optimus tests nlp4lp bench

sandbox-image:
	sandbox/build-image.sh

bench-sandbox: install
	$(BIN)/python bench/bench_sandbox.py

# Industrial scale (issue 30): prompt, build against direct highspy, solve, re-check, peak memory per class and
# size up to VARS variables; ends with "scale N vars: build ratio …, recheck ratio …, peak MiB …, prompt ratio …".
VARS ?= 1000000
bench-scale: install
	$(BIN)/python bench/bench_scale.py --vars $(VARS)

# The ablation offline: every nlp4lp problem under every mode, without and with injected faults; the Z3 problems
# (llmfp/) with their pitfall faults; the planning problems (planning/) against LLM+P's baseline (direct); the
# trips over tables (travel/), and the repair of its unsatisfiable ones by mimic users; the questions of
# nlp4lp's questions.json put to solved runs (--ask); industrial/ at 10^3 and 10^4 variables, clean and with
# the faults that apply to its pyoptinterface programs (tests/test_faults_poi.py), with a solve's time to spare.
# One trajectory per problem records every mode's verdict (--ablation nested, the default; README: Benchmark).
# Outputs in results/bench-*/ (results.jsonl, summary.md, summary.png); a rerun resumes.
BENCH := $(BIN)/optimus bench --llm reference --jobs 2 --sandbox bwrap --timeout 10 --rephrasings 1
Z3_FAULTS := z3_python_bool,z3_python_if,z3_model_value,drop_constraint,flip_constraint,flip_objective
INDUSTRIAL := $(wildcard industrial/*-1e3 industrial/*-1e4)
POI_FAULTS := syntax_error,wrong_key,drop_constraint,flip_constraint,flip_objective,drop_integrality,misspell_output_key,output_wrong_length,infinite_loop,solution_missing,solution_wrong_objective,added_restriction,wrong_test
bench: install
	$(BENCH) nlp4lp --faults none --out results/bench-clean
	$(BENCH) nlp4lp --faults all --seed 0 --out results/bench-faults
	$(BENCH) llmfp --mode supervised --faults none --timeout 60 --out results/bench-llmfp
	$(BENCH) $(filter-out %-unsat,$(wildcard llmfp/[a-z]*-[0-9])) --mode debug,supervised --faults $(Z3_FAULTS) --seed 0 --timeout 60 --out results/bench-llmfp-faults
	$(BENCH) planning --mode prompt,direct --faults none --timeout 60 --out results/bench-planning
	$(BENCH) travel --mode supervised --faults none --timeout 60 --out results/bench-travel
	$(BENCH) travel --repair --mode debug --timeout 60 --out results/bench-travel-repair
	$(BENCH) nlp4lp --ask --out results/bench-ask
	$(BENCH) $(INDUSTRIAL) --faults none --timeout 120 --out results/bench-industrial
	$(BENCH) $(INDUSTRIAL) --faults $(POI_FAULTS) --seed 0 --timeout 120 --out results/bench-industrial-faults
