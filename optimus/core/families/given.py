"""Files the user gave, read before any model call. An expert's PDDL that cannot be read stops the run with the
file and its line named (exit 2): it never reaches the model as an error in a file the model wrote."""

from __future__ import annotations

from pathlib import Path

from optimus.core.errors import SpecError


def check_pddl(domain: Path, problem: Path | None = None) -> None:
    """SpecError naming the file and line that our reader, or unified-planning's as Fast Downward reads
    (planval.reader), cannot read: the domain alone first, then the pair."""
    # The pddl family's own reader; imported here, since that family's package imports this module.
    from optimus.core.families.pddl.pddl_sandbox.sexpr import PddlSyntaxError, read_domain, read_problem

    for path, read in ((domain, read_domain), (problem, read_problem)):
        if path is not None:
            try:
                read(path.read_text())
            except PddlSyntaxError as exc:
                raise SpecError(path, f"line {exc.line}", str(exc).split(": ", 1)[-1]) from None
    from optimus.core.planval.reader import read_pddl
    from optimus.core.planval.up_start import start_unified_planning
    from optimus.core.planval.validate import parse_error

    start_unified_planning()
    for files in ((domain,), (domain, problem)) if problem is not None else ((domain,),):
        try:
            read_pddl(*files)
        except Exception as exc:  # noqa: BLE001 — pyparsing and UP raise many kinds; each becomes words
            raise SpecError(files[-1], "", parse_error(exc, str(files[-1]))) from None
