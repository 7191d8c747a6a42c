"""The pipeline stages, one module each: formulate, codegen (+ debug and fix), execute, testgen, testrun,
rephrase. Each takes a Context and returns an artifact; optimus.agent strings them into the loop."""
