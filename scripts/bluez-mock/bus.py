#!/usr/bin/python3
"""Start a private dbus-daemon for the mock bluetoothd and its clients.

    /usr/bin/python3 scripts/bluez-mock/bus.py --dir DIR

The daemon listens on unix:path=DIR/bus and prints its address as the first line of stdout.
It runs in the foreground (--nofork: with --fork it would setsid and outlive a killed parent), and it
dies with the process that started this script, even if that one is SIGKILLed: PR_SET_PDEATHSIG is set
here and survives the execve into dbus-daemon.
"""

import argparse
import ctypes
import os
import signal

PR_SET_PDEATHSIG = 1
CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "test-bus.conf")


def die_with_parent():
    """Ask the kernel to SIGKILL this process when its parent exits."""
    parent = os.getppid()
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    # The parent may have gone before prctl took effect; then no signal would ever come.
    if os.getppid() != parent:
        os._exit(1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", required=True, help="directory for the bus socket")
    args = parser.parse_args()
    die_with_parent()
    address = "unix:path=" + os.path.join(os.path.abspath(args.dir), "bus")
    os.execvp("dbus-daemon", ["dbus-daemon", "--nofork", "--config-file=" + CONFIG,
                              "--address=" + address, "--print-address=1"])


if __name__ == "__main__":
    main()
