"""Work-dir housekeeping around a run: mount points for read-only inputs, ownership, and safe reads after."""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from optimus.errors import SandboxError

# The unprivileged user sandboxed code runs as when optimus itself runs as root.
NOBODY = 65534


@contextlib.contextmanager
def mount_points(workdir: Path, names: list[str]) -> Iterator[None]:
    """Create empty files to bind read-only inputs onto; remove them afterwards (the host never wrote them)."""
    made = []
    try:
        for name in names:
            path = workdir / name
            path.touch(exist_ok=False)
            made.append(path)
        yield
    finally:
        for path in made:
            with contextlib.suppress(OSError):
                if not path.is_symlink() and path.is_file() and path.stat().st_size == 0:
                    path.unlink()


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


def read_result_file(workdir: Path, name: str, max_bytes: int = 50_000_000) -> bytes:
    """Read a file the sandboxed code wrote, refusing symlinks and special files.

    Code inside the sandbox can plant `output.json -> ~/.ssh/id_rsa`; the host must not follow it.
    """
    if "/" in name or name in ("", ".", ".."):
        raise SandboxError(f"result file name {name!r} must be a plain file name")
    path = Path(workdir) / name
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        kind = "a symlink" if path.is_symlink() else exc.strerror
        raise SandboxError(f"cannot read result file {path}: {kind}") from None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise SandboxError(f"result file {path} is not a regular file")
        if info.st_size > max_bytes:
            raise SandboxError(f"result file {path} is {info.st_size} bytes, over the {max_bytes} limit")
        return f.read(max_bytes + 1)[:max_bytes]
