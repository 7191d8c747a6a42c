"""The docker backend: a throwaway container from the image sandbox/build-image.sh builds.

No network, read-only root, tmpfs /tmp, non-root user, all capabilities dropped, no-new-privileges, memory,
pids and rlimit caps; the work dir is the one writable bind. The container is removed after every run.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
import time
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from optimus.core.errors import SandboxError
from optimus.core.sandbox.base import (
    SANDBOX_WORKDIR,
    Backend,
    Limits,
    RunResult,
    base_env,
    check_request,
    from_shell_status,
    infer_killed_by,
    with_interpreter,
)
from optimus.core.sandbox.files import NOBODY, mount_points, owned_by
from optimus.core.sandbox.local import Capture
from optimus.core.sandbox.shim import shim_argv, split_stderr

IMAGE_NAME = "optimus-sandbox"
IMAGE_PYTHON = "/opt/venv/bin/python"
INPUTS_LABEL = "org.optimus.sandbox.inputs"
START_DOCKERD = "dockerd --iptables=false --ip6tables=false --bridge=none >/var/log/dockerd.log 2>&1 &"
INSTALL = (
    f"apt-get install docker.io, then start the engine: systemctl start docker, or by hand: {START_DOCKERD} "
    "(sandbox/ci-setup.sh does all of it)"
)


def image() -> str:
    return os.environ.get("OPTIMUS_SANDBOX_IMAGE", f"{IMAGE_NAME}:latest")


class DockerBackend(Backend):
    name = "docker"
    holds = (
        "no network (network none)",
        "only the image and the work dir visible; root fs read-only",
        "cleared environment; own pid namespace; nothing outlives the container",
        "memory and processes (cgroups); cpu, file size, open files (ulimits)",
        "wall clock",
        "output cap",
    )

    def __init__(self) -> None:
        self._client: Any = None

    @classmethod
    def check(cls) -> str | None:
        return _check(image())

    def client(self) -> Any:
        if self._client is None:
            self._client = _connect()
        return self._client

    def run(
        self,
        cmd: list[str],
        workdir: Path,
        readonly: Mapping[str, Path] | None = None,
        limits: Limits | None = None,
        env: Mapping[str, str] | None = None,
    ) -> RunResult:
        from docker.errors import DockerException  # the SDK import is slow: only when docker is used

        limits = limits or Limits()
        work, files, extra = check_request(cmd, workdir, readonly, env)
        argv = with_interpreter(cmd, IMAGE_PYTHON)
        root = os.geteuid() == 0
        # As root, the container runs as nobody and gets the work dir for the run; otherwise as us.
        uid, gid = (NOBODY, NOBODY) if root else (os.getuid(), os.getgid())
        try:
            with (
                mount_points(work, files),
                owned_by(work, uid, gid) if root else contextlib.nullcontext(),
            ):
                return self._run(argv, work, files, limits, base_env(_PATH, "/tmp", extra), f"{uid}:{gid}")
        except DockerException as exc:
            raise SandboxError(f"docker sandbox failed: {exc}") from None

    def _run(
        self,
        argv: list[str],
        work: Path,
        files: dict[str, Path],
        limits: Limits,
        env: dict[str, str],
        user: str,
    ) -> RunResult:
        from docker.types import LogConfig, Mount, Ulimit

        mb = 1024 * 1024
        mounts = [Mount(SANDBOX_WORKDIR, str(work), type="bind")]
        mounts += [
            Mount(f"{SANDBOX_WORKDIR}/{n}", str(p), type="bind", read_only=True) for n, p in files.items()
        ]
        start = time.monotonic()
        container = self.client().containers.create(
            image(),
            shim_argv(argv),
            user=user,
            working_dir=SANDBOX_WORKDIR,
            environment=env,
            network_mode="none",
            read_only=True,
            tmpfs={"/tmp": f"rw,nosuid,nodev,size={min(limits.memory_mb, limits.file_size_mb)}m"},
            cap_drop=["ALL"],
            security_opt=["no-new-privileges"],
            mem_limit=limits.memory_mb * mb,
            memswap_limit=limits.memory_mb * mb,  # no swap on top
            pids_limit=limits.processes,
            ulimits=[
                Ulimit(name="cpu", soft=int(limits.cpu_s), hard=int(limits.cpu_s) + 1),
                Ulimit(name="fsize", soft=limits.file_size_mb * mb, hard=limits.file_size_mb * mb),
                Ulimit(name="nofile", soft=limits.nofile, hard=limits.nofile),
                Ulimit(name="core", soft=0, hard=0),
            ],
            mounts=mounts,
            hostname="sandbox",
            log_config=LogConfig(type="none"),  # output comes over attach; a 1 GB flood must not hit disk
            labels={"org.optimus.sandbox": "run"},
        )
        try:
            return self._attach_and_wait(container, limits, start, work)
        finally:
            # Everything in it is dead by now; removing takes ~0.1 s the caller need not wait for. Not a
            # daemon thread, so an exiting interpreter still removes it.
            threading.Thread(target=_remove_quietly, args=(container,)).start()

    def _attach_and_wait(self, container: Any, limits: Limits, start: float, work: Path) -> RunResult:
        from requests.exceptions import RequestException

        api = self.client().api
        stream = api.attach(container.id, stdout=True, stderr=True, stream=True, demux=True, logs=False)
        out, err = Capture(limits.output_bytes), Capture(limits.output_bytes)
        killed: list[str] = []

        def kill(reason: str) -> None:
            if killed:
                return
            killed.append(reason)
            # Not inline: dockerd answers the kill only once the output was drained, and pump drains it.
            threading.Thread(target=_kill_quietly, args=(container,), daemon=True).start()

        def pump() -> None:
            with contextlib.suppress(Exception):  # the stream ends with whatever error a closed socket gives
                for chunk_out, chunk_err in stream:
                    if (chunk_out and out.add(chunk_out)) or (chunk_err and err.add(chunk_err)):
                        kill("output")

        def left() -> float:
            return max(limits.wall_s - (time.monotonic() - start), 0.05)

        reader = threading.Thread(target=pump, daemon=True)
        reader.start()
        container.start()
        reader.join(left())
        try:
            # The output can end before the program does (it may close stdout and sleep): wait on both.
            status = int(api.wait(container.id, timeout=left()).get("StatusCode", -1))
        except RequestException:
            kill("wall")
            status = int(api.wait(container.id, timeout=30).get("StatusCode", -1))
        reader.join(10)
        # 137 = SIGKILL: the cgroup OOM killer or our kill. Only then is the extra inspect worth it.
        oom = status == 137 and bool(api.inspect_container(container.id)["State"].get("OOMKilled"))
        wall = time.monotonic() - start
        code = None if killed else from_shell_status(status)
        stderr, usage = split_stderr(bytes(err.buf).decode(errors="replace"))
        killed_by = killed[0] if killed else ("memory" if oom else None)
        return RunResult(
            exit_code=code,
            stdout=bytes(out.buf).decode(errors="replace"),
            stderr=stderr,
            timed_out=killed_by == "wall",
            killed_by=killed_by or infer_killed_by(code, stderr, usage.get("cpu_s"), limits, work),
            wall_s=round(wall, 4),
            backend=self.name,
            output_truncated=out.overflow or err.overflow,
            resources=usage,
        )


_PATH = "/opt/venv/bin:/usr/local/bin:/usr/bin:/bin"


def _remove_quietly(container: Any) -> None:
    with contextlib.suppress(Exception):  # a leftover stopped container is clutter, not a hazard
        container.remove(force=True)


def _kill_quietly(container: Any) -> None:
    with contextlib.suppress(Exception):  # already gone is fine
        container.kill()


def _connect() -> Any:
    try:
        import docker
        from docker.errors import DockerException
    except ImportError:
        raise SandboxError("the docker Python SDK is missing: pip install 'docker>=7.1,<8'") from None
    try:
        client = docker.from_env(timeout=30)
        client.ping()
    except (DockerException, OSError) as exc:  # requests' errors are OSErrors
        raise SandboxError(f"no docker engine answers ({type(exc).__name__}): {INSTALL}") from None
    return client


def _no_engine_at_socket() -> str | None:
    """Why no engine can answer, seen without the SDK (its import costs ~0.1 s at every start): a local unix
    socket that is missing or refuses. None when the engine may answer (or DOCKER_HOST names another kind)."""
    host = os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")
    if not host.startswith("unix://"):
        return None
    path = host.removeprefix("unix://")
    import socket  # only here: most commands never ask docker

    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(1.0)
        try:
            sock.connect(path)
        except (FileNotFoundError, ConnectionRefusedError) as exc:
            return f"no docker engine answers ({type(exc).__name__} at {path}): {INSTALL}"
        except OSError:
            return None  # e.g. permission denied: let the SDK say it in its words
    return None


@cache
def _check(name: str) -> str | None:
    quick = _no_engine_at_socket()
    if quick is not None:
        return quick
    try:
        client = _connect()
    except SandboxError as exc:
        return str(exc)
    from docker.errors import DockerException, ImageNotFound

    try:
        client.images.get(name)
    except ImageNotFound:
        return f"image {name} is missing: build it with `make sandbox-image` (sandbox/build-image.sh)"
    except DockerException as exc:
        return f"cannot inspect image {name}: {exc}"
    return None


# The files build-image.sh hashes into the image's label and tag, in its order.
BUILD_INPUTS = ("Dockerfile", "requirements.txt", "build-image.sh")
SANDBOX_DIR = Path(__file__).resolve().parents[3] / "sandbox"  # the repo's sandbox/ (the Dockerfile)


def inputs_hash(sandbox_dir: Path = SANDBOX_DIR) -> str:
    """Same as build-image.sh: sha256 of the concatenated inputs, first 16 hex digits."""
    return hashlib.sha256(b"".join((sandbox_dir / n).read_bytes() for n in BUILD_INPUTS)).hexdigest()[:16]


def stale_note() -> str | None:
    """Whether the image predates the sandbox/ inputs of this checkout (None when it cannot tell)."""
    if not all((SANDBOX_DIR / n).is_file() for n in BUILD_INPUTS):
        return None  # an installed optimus without the repo's sandbox/ folder
    from docker.errors import DockerException

    try:
        label = (_connect().images.get(image()).labels or {}).get(INPUTS_LABEL)
    except (SandboxError, DockerException, OSError):
        return None
    if label != inputs_hash():
        return f"image {image()} was built from other sandbox/ inputs: rebuild with `make sandbox-image`"
    return None
