"""Work-dir housekeeping around a run: mount points for read-only inputs, ownership, and safe reads after."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from optimus.core.errors import ConfigError, SandboxError

# The unprivileged user sandboxed code runs as when optimus itself runs as root.
NOBODY = 65534


@contextlib.contextmanager
def mount_points(workdir: Path, files: dict[str, Path]) -> Iterator[None]:
    """Create empty files (or folders, for a folder) to bind read-only inputs onto; remove them afterwards
    (the host never wrote them)."""
    made = []
    try:
        for name, src in files.items():
            path = workdir / name
            path.mkdir() if src.is_dir() else path.touch(exist_ok=False)
            made.append(path)
        yield
    finally:
        for path in made:
            with contextlib.suppress(OSError):
                if not path.is_symlink() and path.is_file() and path.stat().st_size == 0:
                    path.unlink()
                elif not path.is_symlink() and path.is_dir():
                    path.rmdir()  # only when still empty


@contextlib.contextmanager
def owned_by(workdir: Path, uid: int, gid: int) -> Iterator[None]:
    """Hand the work dir to uid:gid for the run, then give every entry (new ones too) back to its owner.

    lchown never follows a symlink the sandboxed code planted, so this cannot touch files outside.
    """
    st = workdir.stat()
    if (st.st_uid, st.st_gid) == (uid, gid):
        yield
        return
    _chown_tree(workdir, uid, gid)
    try:
        yield
    finally:
        _chown_tree(workdir, st.st_uid, st.st_gid)


def _chown_tree(root: Path, uid: int, gid: int) -> None:
    os.lchown(root, uid, gid)
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        for name in dirnames + filenames:
            with contextlib.suppress(FileNotFoundError):
                os.lchown(os.path.join(dirpath, name), uid, gid)


def others_can_read(path: Path) -> bool:
    return bool(path.stat().st_mode & stat.S_IROTH)


# Caps on a result file the sandboxed code wrote: its size (OPTIMUS_MAX_RESULT_MB overrides) and how deep
# its JSON may nest (output_format templates nest a few levels; 200,000 `[` must not crash the host).
MAX_RESULT_MB = 64
MAX_JSON_DEPTH = 64


def max_result_bytes() -> int:
    raw = os.environ.get("OPTIMUS_MAX_RESULT_MB", "")
    try:
        mb = float(raw) if raw else MAX_RESULT_MB
    except ValueError:
        raise ConfigError(f"OPTIMUS_MAX_RESULT_MB must be a number of megabytes, got {raw!r}") from None
    if mb <= 0:
        raise ConfigError(f"OPTIMUS_MAX_RESULT_MB must be positive, got {raw!r}")
    return int(mb * 1024 * 1024)


def read_result_file(workdir: Path, name: str, max_bytes: int | None = None) -> bytes:
    """Read a file the sandboxed code wrote, refusing symlinks, special files (a FIFO, a device) and files
    over `max_bytes` (default: max_result_bytes()), without ever blocking.

    Code inside the sandbox can plant `output.json -> ~/.ssh/id_rsa`; the host must not follow it.
    """
    limit = max_result_bytes() if max_bytes is None else max_bytes
    if "/" in name or name in ("", ".", ".."):
        raise SandboxError(f"result file name {name!r} must be a plain file name")
    path = Path(workdir) / name
    with _open_result(path, limit, "(OPTIMUS_MAX_RESULT_MB sets it)") as f:
        data = f.read(limit + 1)
    if len(data) > limit:  # it grew after the size check
        raise SandboxError(f"result file {path} is over the {limit} limit in bytes")
    return data


def copy_result_file(workdir: Path, name: str, dest: Path, max_bytes: int) -> None:
    """Copy a file the sandboxed code wrote to `dest`, streamed (a model of a million rows is hundreds of MB),
    refusing what read_result_file refuses: a symlink, a special file, more than `max_bytes`."""
    path = Path(workdir) / name
    with _open_result(path, max_bytes) as src, open(dest, "wb") as out:
        shutil.copyfileobj(src, out, 1 << 20)
        if out.tell() > max_bytes:  # it grew after the size check
            raise SandboxError(f"result file {path} is over the {max_bytes} limit in bytes")


def _open_result(path: Path, limit: int, how: str = ""):
    """The result file opened without following a link or blocking on a FIFO; a regular file of at most `limit`
    bytes, or SandboxError saying why not."""
    try:
        # O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        kind = "it is a symlink, which the harness never follows" if path.is_symlink() else exc.strerror
        raise SandboxError(f"cannot read result file {path}: {kind}") from None
    f = os.fdopen(fd, "rb")
    info = os.fstat(f.fileno())
    if not stat.S_ISREG(info.st_mode):
        f.close()
        raise SandboxError(f"result file {path} is not a regular file (it is {_kind(info.st_mode)})")
    if info.st_size > limit:
        f.close()
        raise SandboxError(f"result file {path} is {info.st_size} bytes, over the {limit} limit in bytes"
                           + (f" {how}" if how else ""))
    return f


def write_beside_results(workdir: Path, name: str, text: str) -> Path:
    """Write a harness file (run.json, verification.json) into a folder the sandboxed program wrote: whatever it
    left under that name — a link to a host file, a FIFO — is removed first, never written through."""
    path = Path(workdir) / name
    with contextlib.suppress(FileNotFoundError):
        if path.is_dir() and not path.is_symlink():
            raise SandboxError(f"{path}: the program left a directory where the harness writes {name}")
        path.unlink()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path


def load_json_result(workdir: Path, name: str) -> Any:
    """A JSON value from a result file, read as read_result_file does, nested at most MAX_JSON_DEPTH deep.
    Raises SandboxError for an unreadable file and ValueError (with the reason) for bad JSON."""
    raw = read_result_file(workdir, name)
    too_deep = f"{name} nests deeper than {MAX_JSON_DEPTH} levels"
    try:
        value = json.loads(raw)
    except RecursionError:
        raise ValueError(too_deep) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{name} is not valid JSON: {exc}") from None
    if json_depth(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH:
        raise ValueError(too_deep)
    return value


def json_depth(value: Any, stop: int) -> int:
    """How deep lists and objects nest in a parsed JSON value, counting no further than stop + 1 (iterative:
    no recursion to exhaust)."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            depth += 1
            deepest = max(deepest, depth)
            if deepest > stop:
                return deepest
            stack.extend((child, depth) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def _kind(mode: int) -> str:
    for test, word in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory")):
        if test(mode):
            return word
    return "a special file"


def read_object(workdir: Path, name: str) -> tuple[dict | None, str | None]:
    """A JSON object the sandboxed program wrote, or None and what is wrong with it (words for a repair prompt).
    Read defensively (optimus.core.sandbox.files): no symlink, FIFO or device, a size cap, a depth cap."""
    path = workdir / name
    if not path.exists() and not path.is_symlink():
        return None, f"The program ended without writing {path.name}."
    try:
        value = load_json_result(workdir, name)
    except SandboxError as exc:
        return None, f"{path.name} cannot be read: {exc}"
    except ValueError as exc:
        return None, f"{exc}."
    if not isinstance(value, dict):
        return None, f"{path.name} must hold a JSON object, found {type(value).__name__}."
    return value, None


def take_out(folder: Path, *names: str) -> None:
    """Remove the harness's sandbox-side code (runners, re-checks, the data recorder) from a run's folder once the
    run is over, so attempt folders hold the program and its results only. A link the program planted in its
    place is unlinked, never followed."""
    for name in names:
        path = folder / name
        if path.is_symlink() or path.is_file():
            path.unlink(missing_ok=True)
        elif path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
