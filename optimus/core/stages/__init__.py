"""The pipeline stages, one module each: formulate, codegen (+ debug and fix), execute, testgen, testrun,
rephrase. Each takes a Context and returns an artifact; optimus.core.loop strings them into the loop."""

# The paper's ablation, weakest first: prompt (one shot), debug (+ repair on execution errors), autotests (+ model-
# written tests), supervised (+ the folder's own tests), full (+ rephrased statements). Here, not in optimus.core.loop,
# so that the CLI can offer them without importing the whole pipeline.
MODES = ("prompt", "debug", "autotests", "supervised", "full")
# Baselines beside the ablation (not in the default bench): direct, the model answers with the solution itself
# (LLM-as-planner for planning problems), validated like any run.
BASELINE_MODES = ("direct",)
