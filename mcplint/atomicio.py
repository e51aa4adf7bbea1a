"""Every file mcplint writes (``--fix``, ``-o``, a baseline, a probe's capture, the Action's
SARIF) is written whole or not at all: the text goes to a temporary file beside the target
(same directory, so the same file system), is flushed to disk, gets the target's permissions,
and is renamed over the target. A failure on the way (a full disk, a file-size limit, Ctrl-C,
SIGTERM or SIGHUP) leaves the previous file exactly as it was and no temporary file behind.

A target that is not a regular file (``-o /dev/stdout``, a named pipe) cannot be replaced by a
rename and is written in place. A symbolic link is followed: the file it names is replaced and
the link stays a link (``--fix`` decides beforehand whether a link may be followed at all).
"""

from __future__ import annotations

import os
import signal
import stat
import tempfile
import threading
from collections.abc import Iterable

_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class _Signalled(BaseException):  # not an Exception: nothing on the way may swallow it
    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def write_atomic(path: str | os.PathLike, text: str | Iterable[str], encoding: str = "utf-8",
                 newline: str | None = None, errors: str = "strict") -> None:
    """Write ``text`` (a string, or its pieces one after another) to ``path`` atomically.
    ``newline`` as for :func:`open` (``""``: written exactly as given). Raises :class:`OSError`
    (the previous file intact) when it cannot be done."""
    target = os.path.realpath(os.fspath(path))
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):  # a device or a pipe: nothing to replace
        with open(target, "w", encoding=encoding, newline=newline, errors=errors) as out:
            _write_pieces(out, text)
        return
    directory, name = os.path.split(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".mcplint-tmp", dir=directory or ".")
    old = _catch_signals()
    try:
        try:
            with os.fdopen(fd, "w", encoding=encoding, newline=newline, errors=errors) as out:
                _write_pieces(out, text)
                out.flush()
                os.fsync(out.fileno())
            _copy_mode(tmp, st)
            os.replace(tmp, target)
        except BaseException:
            _unlink(tmp)
            raise
    except _Signalled as e:
        _restore_signals(old)
        signal.raise_signal(e.signum)  # now under the previous handler (by default: the process ends)
        raise OSError(f"interrupted by signal {e.signum}") from None
    finally:
        _restore_signals(old)
    _sync_directory(directory or ".")


def _write_pieces(out, text) -> None:
    for piece in ((text,) if isinstance(text, str) else text):
        out.write(piece)


def _copy_mode(tmp: str, st) -> None:
    """The target's permissions (and owner, where allowed) on the new file; a new file gets
    what :func:`open` would give it (0666 less the umask), not mkstemp's 0600."""
    if st is None:
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        return
    if hasattr(os, "chown"):
        try:
            os.chown(tmp, st.st_uid, st.st_gid)
        except OSError:  # not ours to give away: the file becomes the writer's, as an editor's save does
            pass
    os.chmod(tmp, stat.S_IMODE(st.st_mode))


def _sync_directory(directory: str) -> None:
    """Make the rename itself durable (best effort: not every platform opens a directory)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _catch_signals() -> dict:
    """While the temporary file exists, SIGTERM and SIGHUP raise (so that it is removed) and
    are then delivered again under the handler they had. Main thread only."""
    if threading.current_thread() is not threading.main_thread():
        return {}

    def raise_it(signum, frame):
        raise _Signalled(signum)

    old = {}
    for sig in _SIGNALS:
        try:
            if signal.getsignal(sig) is not signal.SIG_IGN:
                old[sig] = signal.signal(sig, raise_it)
        except (ValueError, OSError):
            pass
    return old


def _restore_signals(old: dict) -> None:
    while old:
        sig, handler = old.popitem()
        signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
