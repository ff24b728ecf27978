"""Files tablescan writes: never over one of its inputs, never over a file unasked, never half.

``check_output`` says at once whether a path may be written, so a command can refuse before
any work; ``written_atomically`` then writes through a temporary file in the same folder,
syncs it to disk and renames it over the name. A crash or a full disk leaves the old file
whole (or no file), never a cut-off one, and the temporary file is removed.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path


class OutputError(Exception):
    """A file that cannot or must not be written; the message names it and says why."""


def check_output(path: str | Path, *, overwrite: bool = False,
                 inputs: Iterable[str | Path] = ()) -> Path:
    """``path`` if it may be written; OutputError naming the path and the reason if not."""
    path = Path(path)
    for source in inputs:
        if _same_file(path, Path(source)):
            raise OutputError(f"{path}: that is also the input {source}; tablescan never "
                              "writes over its own input, so give another name")
    if path.is_dir():
        raise OutputError(f"{path}: is a folder; give the name of a file to write")
    folder = path.parent
    if not folder.exists():
        raise OutputError(f"{path}: the folder {folder} does not exist")
    if not folder.is_dir():
        raise OutputError(f"{path}: {folder} is not a folder")
    if path.exists() or path.is_symlink():
        if not stat.S_ISREG(path.stat().st_mode):
            raise OutputError(f"{path}: not a regular file (a device or other special file); "
                              "give the name of a file to write")
        if not overwrite:
            raise OutputError(f"{path} exists; pass --force to overwrite it")
    return path


@contextmanager
def written_atomically(path: str | Path, *, overwrite: bool = False,
                       inputs: Iterable[str | Path] = ()) -> Iterator[Path]:
    """``with written_atomically(out) as temp:`` write the whole file to ``temp``; on a clean
    exit it is synced and renamed to ``out``. On any error ``out`` is as it was before.

    The temporary name ends with ``out``'s own suffix: some writers choose a layout by it
    (DUP, BRI and DGE boards differ).
    """
    path = check_output(path, overwrite=overwrite, inputs=inputs)
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o666 & ~_UMASK
    try:
        fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.",
                                    suffix=f".tmp{path.suffix}")
    except OSError as exc:
        raise OutputError(_cannot_write(path, exc)) from None
    os.close(fd)
    temp = Path(name)
    try:
        yield temp
        _sync(temp)
        os.chmod(temp, mode)
        os.replace(temp, path)
        _sync_folder(path.parent)
    except OSError as exc:
        raise OutputError(_cannot_write(path, exc)) from None
    finally:
        temp.unlink(missing_ok=True)


def write_bytes_atomically(path: str | Path, data: bytes, *, overwrite: bool = False,
                           inputs: Iterable[str | Path] = ()) -> None:
    """The whole of ``data`` as the file ``path``, or nothing at all (see written_atomically)."""
    with written_atomically(path, overwrite=overwrite, inputs=inputs) as temp:
        temp.write_bytes(data)


def _same_file(out: Path, source: Path) -> bool:
    try:
        return out.exists() and source.exists() and os.path.samefile(out, source)
    except OSError:
        return out.resolve() == source.resolve()


def _sync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable. Not every system lets a folder be synced."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _cannot_write(path: Path, exc: OSError) -> str:
    kept = "the old file is unchanged" if path.exists() else "nothing was written"
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"{path}: disk full; {kept}"
    return f"{path}: cannot write ({exc.strerror or exc}); {kept}"


def _read_umask() -> int:
    # The only portable way to read the umask is to set it; done once, at import.
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_UMASK = _read_umask()
