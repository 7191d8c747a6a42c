"""optimus: turn a structured natural-language optimization problem (SNOP) into a solved, tested model.

The public API (optimus.commands.api), for notebooks and scripts; the command line stands on it:

    import optimus
    report = optimus.solve("nlp4lp/12", llm="reference")   # a Report: status, objective, verified, …
    rows = optimus.bench(["nlp4lp"], modes=["prompt", "full"])
    draft = optimus.new("request.txt", "my-problem", llm="reference", yes=True)   # a folder from plain words
    outcome = optimus.repair("nlp4lp/20-infeasible/runs/latest", accept=1)       # an infeasible run repaired
"""

__version__ = "0.1.0"
__all__ = ["bench", "new", "repair", "solve"]


def __getattr__(name: str):
    # Lazily: `optimus --help` and `optimus validate` must not pay for the pipeline's imports.
    if name in __all__:
        from optimus.commands import api

        return getattr(api, name)
    raise AttributeError(f"module 'optimus' has no attribute {name!r}")
