"""Solver families: how a problem of one kind is coded, run, re-checked and explained.

A family is one folder here whose package defines `FAMILY`, an instance of `Family` (or of a subclass overriding
its hooks), beside its host-side re-check and its sandbox-side code (pulp: verify.py and resolve/; z3: judge.py
and z3_sandbox/; pddl: pddl_sandbox/). The loop (optimus.core.loop and the stages) asks the problem's family; it
never branches on which family it runs, and no family imports another (pyproject's import contracts). Adding a
family = one folder, its prompt files, an entry in `NAMES`, and the SNOP schema's `solver` enum.

Prompts follow one convention: a stage's template is `<stage>_<family>.txt` when the family has one,
else the shared `<stage>.txt`; the shared codegen prompt takes the family's rules from `solver_<family>.txt`.
"""

from __future__ import annotations

import importlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from optimus.core.outcomes import FOUND, Execution, Verdict
from optimus.core.prompts import PROMPT_DIR, template
from optimus.core.sandbox import Backend as SandboxBackend
from optimus.core.sandbox import Limits, write_beside_results
from optimus.core.testing import CONFTEST

if TYPE_CHECKING:
    from optimus.core.problem import Problem
    from optimus.core.snop import Snop
    from optimus.core.solver_options import SolverOptions

# Registration is this list, not an if-ladder: module names under optimus/core/families/, in order of preference.
NAMES = ("pulp", "cvxpy", "z3", "pddl")
# A SNOP's `solver` values that name a family other than by its own name.
ALIASES = {"highspy": "pulp"}


class StageContext(Protocol):
    """What a family's hooks read of a stage's context. optimus.core.stages.context.Context is one: the stages
    sit above the families, so this package names the shape it needs instead of importing them."""

    problem: Problem
    snop: Snop
    sandbox: SandboxBackend
    limits: Limits
    mode: str
    optimal: bool
    sandbox_seconds: float
    solver: SolverOptions


@dataclass(frozen=True)
class Family:
    name: str
    what: str  # one line for prompts and reports: which problems it takes
    problem_types: tuple[str, ...] = ()  # problem types it takes when the SNOP says solver ANY
    artifact: str = "solver.py"  # the file the model writes
    lang: str = "python"  # its code-fence language
    sandbox_side: tuple[str, ...] = ()  # what prepare() copies beside the artifact; taken out after the run

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

    def prompt_values(self, ctx: StageContext) -> dict[str, str]:
        """Values the family's own prompts name beyond the SNOP's parts (a given domain's predicates, …).
        Never data values: only what an expert gave as part of the problem's definition."""
        return {}

    def found_statuses(self, problem_type: str) -> tuple[str, ...]:
        """The statuses this family's runs write for a solution found to a problem of this type: all that its
        generated tests may expect (the testgen prompt names them; tests/test_prompt_statuses.py checks)."""
        return ("optimal",)

    def check_given(self, problem: Problem) -> None:
        """Read the files the user gave that this family reads (an expert's domain.pddl): SpecError naming the
        file and line when one cannot be read. Runs before any model call, so it is never the model's error."""

    def test_files(self, workdir: Path) -> dict[str, Path]:
        """Files the tests read beside output.json (name → path), e.g. the problem file the model wrote."""
        return {}

    def prepare(self, ctx: StageContext, workdir: Path, code: str) -> list[str]:
        """Write the model's artifact (and whatever the harness runs beside it) into workdir; return the
        command to run there in the sandbox. The run must leave output.json and solution.json."""
        (workdir / self.artifact).write_text(code)
        return ["python", self.artifact]

    def no_solution_hint(self, status: str, known: bool = True) -> str:
        """What the fix prompt says first when the run found no solution: `known`, expected.json says the problem
        has one; else only that nothing proved this the problem's own answer (a proven one never reaches fix:
        optimus.core.stages.review)."""
        why = ("but the problem is expected to have an optimal solution" if known else
               "and nothing has proven that the problem itself has none")
        return (f"The solver reported the model {status}, {why}. "
                "Look for a constraint with the wrong direction or scale, a wrong bound, or a missing variable.")

    def recheck(self, ctx: StageContext, ex: Execution) -> Verdict:
        """The independent re-check of what the run captured, with the diagnosis of "no solution"."""
        return Verdict("skipped", f"verification skipped: the {self.name} family has no independent re-check")


def status_words(family: Family | None, problem_type: str) -> str:
    """The found statuses as a prompt says them: '"optimal"', '"optimal" or "feasible"'."""
    return " or ".join(f'"{s}"' for s in (family.found_statuses(problem_type) if family else FOUND))


def load(name: str) -> Family:
    name = ALIASES.get(name, name)
    if name not in NAMES:
        raise KeyError(f"no solver family {name!r} (known: {', '.join(NAMES)})")
    return importlib.import_module(f"optimus.core.families.{name}").FAMILY


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


def write_verdict(workdir: Path, verdict: Verdict) -> None:
    """verification.json in the attempt's folder, for `optimus diagnose` and people (never through a planted link)."""
    write_beside_results(workdir, "verification.json", json.dumps(verdict.to_dict(), indent=2, default=str) + "\n")
