"""The helper program as a fork server (``python -c SOURCE --serve MODULE,...``): the modules named
(the server's SDK, as mcplint's ``warm.PRELOAD`` lists them) are imported once, then every module
to list is handled in a fork of this process, so only the first file of a run pays for importing
the SDK (about a second for mcp 2 or fastmcp).

Part of the program ``_child.py`` describes (standard library only, no ``from __future__``).
Requests come on stdin, one JSON line each: ``{"argv": [...], "out": FILE, "err": FILE,
"deadline": SECONDS, "cwd": DIR}``, the ``argv`` that ``main`` takes. The fork writes what the module
prints to ``out`` and ``err`` and its result where ``argv`` says, as a fresh interpreter would;
this process answers each request with one line, ``{"status": EXIT CODE, "timeout": BOOL}``,
having killed a fork still running at the deadline. It exits at the end of stdin. Its first line
says whether it can serve at all: ``{"ready": true}``, or ``{"ready": false}`` when the SDK's
import started a thread (a fork would copy a process whose locks another thread may hold).
"""


OUTPUT_CAP = 1 << 20  # characters of stdout, and of stderr, the module's Python code may print; the rest is dropped


class _Capped:
    """``sys.stdout``/``sys.stderr`` for the module: what it prints past ``OUTPUT_CAP`` characters
    is dropped (mcplint keeps only the end of it anyway), so a module printing hundreds of
    megabytes on import fills no disk and no memory."""

    def __init__(self, stream):
        self._stream, self._left, self._cut = stream, OUTPUT_CAP, False

    def write(self, text):
        n = len(text)
        if self._left > 0:
            self._stream.write(text[: self._left])
            self._left -= n
        elif not self._cut:
            self._cut = True
            self._stream.write(f"\n[mcplint: output past {OUTPUT_CAP} characters dropped]\n")
        return n

    def __getattr__(self, name):  # flush, fileno (faulthandler writes to the descriptor), encoding, ...
        return getattr(self._stream, name)


def contain():
    """Before the module is imported: on Linux this process becomes the *subreaper* of whatever
    the module starts (a daemon that double-forks and calls setsid() is re-parented here, not
    to init, so :func:`end_descendants` finds it), and its printing is capped."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
        except Exception:
            pass
    sys.stdout, sys.stderr = _Capped(sys.stdout), _Capped(sys.stderr)


def _descendants(root):
    """Every live process below ``root``, by the parent links in /proc (none where there is no /proc)."""
    children = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as fh:
                    stat = fh.read()
            except OSError:
                continue
            fields = stat[stat.rfind(b")") + 2:].split()
            if len(fields) > 1 and fields[0] != b"Z":
                children.setdefault(int(fields[1]), []).append(int(name))
    out, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), ()):
            out.append(child)
            todo.append(child)
    return out


def end_descendants(root=None):
    """Kill every process below ``root`` (this one by default), those that left its process
    group and session included, until none is left; reap this process's own."""
    root = os.getpid() if root is None else root
    for _ in range(50):  # each round catches what the last round's victims forked meanwhile
        left = _descendants(root)
        if not left:
            break
        for pid in left:
            try:
                os.kill(pid, 9)
            except OSError:
                pass
        if root == os.getpid():
            _reap(left)


def _reap(killed):
    """Wait (a second at most) for those of ``killed`` that are this process's children."""
    import time

    until = time.monotonic() + 1
    for pid in killed:
        while time.monotonic() < until:
            try:
                if os.waitpid(pid, os.WNOHANG)[0]:
                    break
            except ChildProcessError:  # not a child of this process (it is its parent's to reap)
                break
            time.sleep(0.005)


def serve(preload):
    global _PRELOADED
    import builtins
    import importlib
    import threading
    import time

    for name in preload:  # whichever of them this interpreter has (mcp 1 has no mcpserver, mcp 2 no fastmcp)
        try:
            importlib.import_module(name)
        except BaseException:
            pass
    control = sys.stdout
    ok = threading.active_count() == 1 and hasattr(os, "fork")
    control.write(json.dumps({"ready": ok}) + "\n")
    control.flush()
    if not ok:
        return
    preloaded = frozenset(sys.modules)
    for line in sys.stdin:
        req = json.loads(line)
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the fork: one module, as a fresh interpreter would run it
            code = 1
            try:
                os.setsid()  # a session and process group of its own, killed with it
                for fd, path in ((1, req["out"]), (2, req["err"])):
                    target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                    os.dup2(target, fd)
                    os.close(target)
                devnull = os.open(os.devnull, os.O_RDONLY)
                os.dup2(devnull, 0)
                os.close(devnull)
                sys.stdin = open(os.devnull)
                os.chdir(req["cwd"])  # (where the file is named from: mcplint's own directory)
                _PRELOADED = preloaded
                builtins.__import__ = _noting_sdk_imports(builtins.__import__)
                contained(req["argv"])
                code = 0
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else 1
            except BaseException:
                traceback.print_exc()
            finally:
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                finally:
                    os._exit(code)
        deadline = time.monotonic() + req["deadline"]
        timed_out = False
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline and not timed_out:
                timed_out = True
                end_descendants(pid)
                os.kill(pid, 9)
            time.sleep(0.002)
        try:
            os.killpg(pid, 9)  # whatever is left of its group
        except OSError:
            pass
        control.write(json.dumps({"status": os.waitstatus_to_exitcode(status), "timeout": timed_out}) + "\n")
        control.flush()


def _noting_sdk_imports(real):
    """``__import__`` that notes an import of the SDK (in a fork the SDK is already in
    ``sys.modules``, so only the import statement shows that the module uses it)."""
    def hooked(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and name.split(".")[0] in SDK_ROOTS:
            _SDK_SEEN.append(name)
        return real(name, globals, locals, fromlist, level)

    return hooked


def imports_an_sdk():
    """Whether the module imported an MCP SDK (mcp or fastmcp): in a fresh interpreter, whether one
    is in ``sys.modules`` now; in a fork, whether one was imported since the fork."""
    loaded = [m for m in list(sys.modules) if m.split(".")[0] in SDK_ROOTS]
    if _PRELOADED is None:
        return bool(loaded)
    return bool(_SDK_SEEN) or any(m not in _PRELOADED for m in loaded)


_PRELOADED = None  # in a fork of the server: the modules imported before the module to list
_SDK_SEEN: list = []  # in a fork: the SDK modules the module's import statements named
