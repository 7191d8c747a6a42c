"""One error hierarchy. The CLI turns these into exit codes and one-line messages."""

from __future__ import annotations


class OptimusError(Exception):
    """Base of every error optimus raises on purpose. `exit_code` is what the CLI exits with."""

    exit_code = 2


class SpecError(OptimusError):
    """A problem folder, SNOP or data file is malformed. Names the file and the field."""

    def __init__(self, file: str, where: str, message: str):
        self.file, self.where, self.message = str(file), where, message
        super().__init__(f"{self.file}: {where}: {message}" if where else f"{self.file}: {message}")


class ConfigError(OptimusError):
    """Missing or wrong configuration (LLM endpoint, sandbox backend, options); says what to set."""


class LLMError(OptimusError):
    """The model could not be reached or kept answering unusably after bounded retries."""

    exit_code = 1


class EnvironmentFault(OptimusError):
    """The machine, not the input nor optimus: a read-only or full disk, a folder we may not write. Names the path
    and the fix."""


class SandboxError(OptimusError):
    """A sandbox backend is unavailable or failed to start (not: the code inside it failed)."""


class ExecutorError(OptimusError):
    """The bench's executor could not start (a local Ray on a machine too busy for its start-up): the machine's
    state, neither the user's input nor a bug of ours."""

    exit_code = 1


class SolverError(OptimusError):
    """A solver could not be run on a captured model."""

    exit_code = 1
