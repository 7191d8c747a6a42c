"""The Python API's keyword arguments, checked against the command line's own definitions (one source for both).

`optimus.solve(folder, mode="bogus")` is refused as `optimus solve --mode bogus` is: a ValueError naming the valid
values; an unknown keyword is a TypeError naming the valid ones. The definitions are the CLI parser's actions
(choices, types), so a flag added there is checked here without a second list.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from optimus.commands.parser import build_parser
from optimus.core.errors import ConfigError


class BadValue(ConfigError, ValueError):
    """A value the command line would refuse: a ValueError to Python callers, exit 2 on the command line."""


class BadKeyword(ConfigError, TypeError):
    """A keyword the command has no flag for: a TypeError to Python callers, exit 2 on the command line."""


# The API's names for flags whose destination differs on the command line (the API's name → the CLI's dest).
RENAMED = {"memory_mb": "memory", "use_cache": "no_cache", "modes": "mode"}
# Destinations that are the command line's own business: positional arguments and output switches.
CLI_ONLY = {"help", "func", "json", "dir", "dirs", "run_dir", "question", "show", "export", "no_cache", "source"}


@cache
def _actions(command: str) -> dict[str, argparse.Action]:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return {a.dest: a for a in sub.choices[command]._actions}


def check(command: str, given: Mapping[str, Any], api_only: Iterable[str] = ()) -> None:
    """Raise TypeError for a keyword `optimus <command>` has no flag for, ValueError for a value its flag refuses."""
    actions = _actions(command)
    valid = set(api_only) | {api for api, dest in RENAMED.items() if dest in actions} | {
        dest for dest in actions if dest not in CLI_ONLY}
    refuse_unknown(command, given, valid)
    check_values(command, given)


def refuse_unknown(command: str, given: Mapping[str, Any], valid: Iterable[str]) -> None:
    valid = sorted(set(valid))
    for key in given:
        if key not in valid:
            raise BadKeyword(f"optimus.{command}() got an unexpected keyword argument {key!r}; "
                            f"valid: {', '.join(valid)}")


def check_values(command: str, given: Mapping[str, Any]) -> None:
    """Each value whose keyword has a flag on the command line, as that flag would take it."""
    actions = _actions(command)
    for key, value in given.items():
        action = actions.get(RENAMED.get(key, key))
        if action is None or key in CLI_ONLY:
            continue
        for one in (value if key == "modes" and isinstance(value, (list, tuple)) else [value]):
            check_value(command, key, one, action)


def check_value(command: str, key: str, value: Any, action: argparse.Action) -> None:
    if value is None:
        return
    if action.choices is not None and value not in action.choices:
        listed = ", ".join(repr(c) for c in action.choices)
        raise BadValue(f"optimus.{command}(): {key}={value!r} is not one of {listed}")
    numeric = action.type in (int, float)
    if numeric and (isinstance(value, bool) or not isinstance(value, (int, float))):
        raise BadKeyword(f"optimus.{command}(): {key} takes a number ({action.type.__name__}), not {value!r}")
    if numeric and action.type is int and not float(value).is_integer():
        raise BadValue(f"optimus.{command}(): {key} takes a whole number, not {value!r}")
