"""Solver families: how a problem of one kind is coded, run, re-checked and explained.

A family is one module here that defines `FAMILY`, an instance of `Family` (or of a subclass overriding
its hooks). The loop (optimus.agent and the stages) asks the problem's family; it never branches on which
family it runs. Adding a family = one module, its prompt files, its sandbox-side re-check, an entry in
`NAMES`, and the SNOP schema's `solver` enum.

Prompts follow one convention: a stage's template is `<stage>_<family>.txt` when the family has one,
else the shared `<stage>.txt`; the shared codegen prompt takes the family's rules from `solver_<family>.txt`.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from optimus.prompts import PROMPT_DIR, template
from optimus.testing import CONFTEST

if TYPE_CHECKING:
    from optimus.problem import Problem
    from optimus.stages.context import Context
    from optimus.stages.execute import Execution
    from optimus.verify import Verdict

# Registration is this list, not an if-ladder: module names under optimus/families/, in order of preference.
NAMES = ("pulp", "cvxpy", "z3", "pddl")
# A SNOP's `solver` values that name a family other than by its own name.
ALIASES = {"highspy": "pulp"}
# Statuses a run may report in solution.json. "feasible": a solution that satisfies every statement, with no
# objective to optimise (a satisfaction problem) or none proven optimal (a satisficing plan).
STATUSES = ("optimal", "feasible", "infeasible", "unbounded", "time_limit", "error")
FOUND = ("optimal", "feasible")  # statuses with a solution whose output the tests check


@dataclass(frozen=True)
class Family:
    name: str
    what: str  # one line for prompts and reports: which problems it takes
    problem_types: tuple[str, ...] = ()  # problem types it takes when the SNOP says solver ANY
    artifact: str = "solver.py"  # the file the model writes
    lang: str = "python"  # its code-fence language

    def takes(self, problem: Problem) -> bool:
        """Whether this folder has what the family needs (a PDDL family needs domain.pddl)."""
        return True

    def prompt_name(self, stage: str) -> str:
        """`<stage>_<family>` when that prompt file exists, else the shared `<stage>`."""
        own = f"{stage}_{self.name}"
        return own if (PROMPT_DIR / f"{own}.txt").is_file() else stage

    def codegen_rules(self) -> str:
        """The solver-specific rules the shared codegen prompt carries."""
        path = PROMPT_DIR / f"solver_{self.name}.txt"
        return template(f"solver_{self.name}").strip() if path.is_file() else ""

    def conftest(self) -> Path:
        """The fixtures the problem's tests get (copied next to them in the sandbox)."""
        return CONFTEST

    def prompt_values(self, ctx: Context) -> dict[str, str]:
        """Values the family's own prompts name beyond the SNOP's parts (a given domain's predicates, …).
        Never data values: only what an expert gave as part of the problem's definition."""
        return {}

    def test_files(self, workdir: Path) -> dict[str, Path]:
        """Files the tests read beside output.json (name → path), e.g. the problem file the model wrote."""
        return {}

    def prepare(self, ctx: Context, workdir: Path, code: str) -> list[str]:
        """Write the model's artifact (and whatever the harness runs beside it) into workdir; return the
        command to run there in the sandbox. The run must leave output.json and solution.json."""
        (workdir / self.artifact).write_text(code)
        return ["python", self.artifact]

    def no_solution_hint(self, status: str) -> str:
        """What the fix prompt says first when the run found no solution but the problem has one."""
        return (f"The solver reported the model {status}, but the problem is expected to have an optimal solution. "
                "Look for a constraint with the wrong direction or scale, a wrong bound, or a missing variable.")

    def recheck(self, ctx: Context, ex: Execution) -> Verdict:
        """The independent re-check of what the run captured, with the diagnosis of "no solution"."""
        from optimus.verify import Verdict

        return Verdict("skipped", f"verification skipped: the {self.name} family has no independent re-check")


def load(name: str) -> Family:
    name = ALIASES.get(name, name)
    if name not in NAMES:
        raise KeyError(f"no solver family {name!r} (known: {', '.join(NAMES)})")
    return importlib.import_module(f"optimus.families.{name}").FAMILY


def choose(problem: Problem) -> Family | None:
    """The family the SNOP asks for, or the one its problem type implies; None when formulate must choose."""
    snop = problem.snop
    if snop.solver != "ANY":
        return load(snop.solver)
    # Lazily, in NAMES order: an LP loads the pulp module alone, not every family's (and their imports).
    takers = (f for f in map(load, NAMES) if snop.problem_type in f.problem_types and f.takes(problem))
    return next(takers, None)


_CHOICE = re.compile(r"^\W*family\W*:?\W*(\w+).*$", re.IGNORECASE | re.MULTILINE)


def from_formulation(text: str) -> tuple[Family, str]:
    """The family a formulation chose on its `Family: NAME — why` line, and the line; pulp when it named none
    we know (said in the second value)."""
    match = _CHOICE.search(text)
    name = ALIASES.get(match.group(1).lower(), match.group(1).lower()) if match else None
    if name in NAMES:
        return load(name), match.group(0).strip()
    return load("pulp"), "the formulation named no known family: pulp by default"


def choices() -> str:
    """The families formulate may choose from, one line each (for the prompt)."""
    return "\n".join(f"- {f.name}: {f.what}" for f in map(load, NAMES))
