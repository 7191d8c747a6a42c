"""Files the user gave, read before any model call. An expert's PDDL that cannot be read stops the run with the
file and its line named (exit 2): it never reaches the model as an error in a file the model wrote."""

from __future__ import annotations

from pathlib import Path

from optimus.core.errors import SpecError


def check_pddl(domain: Path, problem: Path | None = None) -> list[str]:
    """What Fast Downward's translator reads (planval.translator), the domain alone or the pair; its warnings
    (a shape older planners read). SpecError naming the file and line it refuses, in our reader's words when
    ours finds a syntax error there (it names the unclosed '(')."""
    from optimus.core.planval.translator import TranslatorError, read_domain_alone, read_pair

    try:
        return read_domain_alone(domain) if problem is None else read_pair(domain, problem).warnings
    except TranslatorError as exc:
        failed = exc
    # The pddl family's own reader, for the line of a syntax error (it names the unclosed '('); imported here,
    # since that family's package imports this module.
    from optimus.core.families.pddl.pddl_sandbox.sexpr import PddlSyntaxError, read_domain, read_problem

    path = next((p for p in (domain, problem) if p is not None and p.name == failed.file), problem or domain)
    try:
        (read_problem if path == problem else read_domain)(path.read_text(encoding="latin-1"))
    except PddlSyntaxError as exc:
        raise SpecError(path, f"line {exc.line}", str(exc).split(": ", 1)[-1]) from None
    raise SpecError(path, f"line {failed.line}" if failed.line else "", str(failed))
