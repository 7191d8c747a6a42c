"""unified-planning's start without its tuning library: the sandboxed planning runs call this before any UP use.

UP's engine base class (unified_planning/engines/engine.py) imports ConfigSpace at module level only to type
`Engine.get_configuration_space()`, which tunes an engine's parameters; ConfigSpace imports scipy.stats. Every
UP entry point (even PDDLReader, through the environment's engine factory) loads that chain: ~1.5 s of CPU at
each start of a sandboxed planning process, more than the parse, the planner and the validation together. The
sandboxed runs never tune an engine, so a placeholder stands in while UP's engines load, and is taken out of
sys.modules right after: a later `import ConfigSpace` gets the real package. Imports nothing from optimus.
"""

from __future__ import annotations

import sys
import types

TUNING_LIBRARY = "ConfigSpace"


class ConfigurationSpace:
    """Stands in for ConfigSpace.ConfigurationSpace, which UP names but a sandboxed run never builds."""


def start_unified_planning() -> None:
    """Load unified_planning.engines without ConfigSpace (unless it is loaded already) and silence UP's credits."""
    if "unified_planning.engines" not in sys.modules and TUNING_LIBRARY not in sys.modules:
        placeholder = types.ModuleType(TUNING_LIBRARY, "a placeholder: optimus.core.planval.up_start")
        placeholder.ConfigurationSpace = ConfigurationSpace
        sys.modules[TUNING_LIBRARY] = placeholder
        try:
            import unified_planning.engines  # noqa: F401 — binds the placeholder where UP imports it
        finally:
            if sys.modules.get(TUNING_LIBRARY) is placeholder:
                del sys.modules[TUNING_LIBRARY]
    from unified_planning.shortcuts import get_environment

    get_environment().credits_stream = None
