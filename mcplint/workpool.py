"""The process pool ``mcplint scan`` spreads files over: ``multiprocessing.Pool``, less a busy wait."""

from __future__ import annotations

import multiprocessing.pool


class Pool(multiprocessing.pool.Pool):
    """The pool's thread that replaces dead workers waits on their exits, on a queue of the
    pool's changes (its state, no result left to wait for), and on the pipe the results come
    through, which is readable whenever a result is in it: while results stream in (41 MB for the
    benchmark's 100 files with three profiles) the thread wakes and waits again thousands of
    times, for about a tenth of a second of the parent's CPU, and takes the interpreter's lock
    from the thread reading the results each time. The exits and the queue say all it acts on."""

    def _get_sentinels(self):
        if not hasattr(self, "_change_notifier"):  # (a version of the pool that keeps no such queue)
            return super()._get_sentinels()
        return [self._change_notifier._reader]
