"""Which sandbox backends the tests may use. The one place a missing backend becomes a skip, or, with
OPTIMUS_REQUIRE_SANDBOXES=1 (CI), a failure."""

from __future__ import annotations

import os

import pytest

from optimus.core.sandbox import backend_names, get_backend
from optimus.core.sandbox.base import Backend
from optimus.core.sandbox.registry import BACKENDS

REQUIRE_ENV = "OPTIMUS_REQUIRE_SANDBOXES"
BACKEND_NAMES = backend_names()


def sandboxes_required() -> bool:
    return os.environ.get(REQUIRE_ENV) == "1"


def backend_or_skip(name: str) -> Backend:
    """The named backend, or skip (fail when sandboxes are required) saying why it is unavailable."""
    reason = BACKENDS[name].check()
    if reason is not None:
        message = f"sandbox backend {name} unavailable: {reason}"
        if sandboxes_required():
            pytest.fail(f"{message} ({REQUIRE_ENV}=1)", pytrace=False)
        pytest.skip(message)
    return get_backend(name)
