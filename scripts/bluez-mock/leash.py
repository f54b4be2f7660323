"""Ties a helper process (the private bus, the mock bluetoothd) to the process that started it.

PR_SET_PDEATHSIG alone is not enough: the kernel sends it when the *thread* that started the child exits, and a
test runner's worker threads come and go while the test process lives on, which killed buses in the middle of
tests. So the leash watches the parent *process*: when its id changes (the parent died and the child was
re-parented), the helper ends. PR_SET_PDEATHSIG is kept only for children this helper starts itself from its main
thread, which lives as long as the helper.
"""

import ctypes
import os
import signal
import threading
import time

PR_SET_PDEATHSIG = 1


def watch_parent(on_gone, interval=0.2):
    """Calls `on_gone()` from a daemon thread once the process that started this one has gone."""
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(interval)
        on_gone()

    threading.Thread(target=watch, name="leash", daemon=True).start()


def die_with_this_thread():
    """For a child's preexec_fn: SIGKILL the child when the thread that forked it ends."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def unblock_signals():
    """Takes every signal out of this process's blocked mask. A child inherits its parent thread's mask, and a
    test runner's worker threads block most signals: a mock started from one would never see the SIGTERM that is
    meant to end it."""
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
