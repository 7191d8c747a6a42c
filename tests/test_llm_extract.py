"""extract_code: fenced, bare, prose around, several blocks, truncated and missing programs."""

from __future__ import annotations

import ast
import keyword

import pytest
from hypothesis import given
from hypothesis import strategies as st

from optimus.core.errors import LLMError
from optimus.core.llm import CodeExtractionError, extract_code

PROGRAM = "import pulp\n\nm = pulp.LpProblem('p', pulp.LpMinimize)\nm.solve()\nprint(m.status)\n"

names = st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True).filter(lambda s: not keyword.iskeyword(s))
literals = st.one_of(st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.text()).map(repr)
statements = st.one_of(
    st.builds("{} = {}".format, names, literals),
    st.builds("print({})".format, literals),
    st.builds("def {}(a):\n    b = {}\n    return a".format, names, literals),
    st.builds("for {} in range(3):\n    pass".format, names),
    st.sampled_from(["import math", "from json import dump"]),
)
programs = st.lists(statements, min_size=1, max_size=8).map(lambda lines: "\n".join(lines) + "\n")
# Prose is anything without a fence character; it may spread over many lines.
prose = st.text(st.characters(blacklist_characters="`~", blacklist_categories=("Cs",)), max_size=200)


@given(
    before=prose,
    program=programs,
    after=prose,
    tag=st.sampled_from(["python", "py", "Python", "python3", ""]),
)
def test_any_fenced_program_comes_back_exactly(before: str, program: str, after: str, tag: str) -> None:
    ast.parse(program)  # the strategy makes valid programs only
    text = f"{before}\n```{tag}\n{program}```\n{after}"
    assert extract_code(text, finish_reason="stop") == program


@given(program=programs)
def test_bare_program_is_accepted(program: str) -> None:
    assert extract_code(program) == program
    assert extract_code(f"\n\n{program}\n\n") == program


@given(program=programs, cut=st.floats(0, 1))
def test_any_cut_inside_the_block_is_rejected_with_feedback(program: str, cut: float) -> None:
    # No finish_reason: the unclosed fence alone must reveal the cut.
    header = "Here it is:\n```python\n"
    text = header + program[: int(len(program) * cut)]
    with pytest.raises(CodeExtractionError) as err:
        extract_code(text, finish_reason=None)
    assert "cut off" in err.value.feedback


def test_unclosed_fence_is_truncation_even_without_length() -> None:
    with pytest.raises(CodeExtractionError) as err:
        extract_code("Sure:\n```python\nimport pulp\nm = pulp.LpProblem(", finish_reason="stop")
    assert "cut off" in err.value.feedback and "```python" in err.value.feedback
    assert isinstance(err.value, LLMError) and err.value.text.startswith("Sure:")


def test_length_finish_is_never_trusted_even_with_a_closed_block() -> None:
    with pytest.raises(CodeExtractionError, match="truncated"):
        extract_code(f"```python\n{PROGRAM}```\nTo run it, first inst", finish_reason="length")


@pytest.mark.parametrize(
    "text", ["", "I cannot solve this problem.", "The optimum is 42", '```\n{"x": 1}\n```']
)
def test_no_code_gives_feedback(text: str) -> None:
    with pytest.raises(CodeExtractionError) as err:
        extract_code(text, finish_reason="stop")
    assert "no python program" in err.value.feedback and "```python" in err.value.feedback


def test_longest_python_block_wins_over_fragments_and_other_languages() -> None:
    text = (
        "First the key idea:\n```python\nm += x <= 5\n```\nThe full program:\n"
        f"```python\n{PROGRAM}```\nInstall with:\n```bash\npip install pulp and a very long comment here to be long\n```"
    )
    assert extract_code(text) == PROGRAM


def test_equal_length_blocks_take_the_last() -> None:
    assert extract_code("```python\nx = 1\n```\nfixed:\n```python\nx = 2\n```") == "x = 2\n"


def test_tagged_block_beats_longer_untagged_output_sample() -> None:
    sample = "```\n" + "x = 1\n" * 30 + "```\n"
    assert extract_code(f"{sample}Program:\n```py\n{PROGRAM}```") == PROGRAM


def test_prose_then_unfenced_code() -> None:
    assert extract_code(f"Here is the model, no fences.\n\n{PROGRAM}") == PROGRAM


def test_indented_tilde_and_long_fences() -> None:
    indented = "1. Save this:\n\n   ```python\n   def f():\n       return 1\n   print(f())\n   ```\n"
    assert extract_code(indented) == "def f():\n    return 1\nprint(f())\n"
    assert extract_code(f"~~~python\n{PROGRAM}~~~") == PROGRAM
    doc = 'NOTE = """\n```\nmarkdown inside\n```\n"""\nprint(NOTE)\n'
    assert extract_code(f"````python\n{doc}````") == doc


def test_crlf_answer() -> None:
    assert extract_code(f"```python\r\n{PROGRAM.replace(chr(10), chr(13) + chr(10))}```\r\n") == PROGRAM
