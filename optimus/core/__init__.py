"""The core layer: the problem, the model, the sandbox, the families, the stages and the loop. It imports neither optimus.commands nor optimus.bench."""
