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
                main(req["argv"])
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
                os.kill(pid, 9)
            time.sleep(0.002)
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
