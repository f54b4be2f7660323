#!/usr/bin/python3
"""Start a private dbus-daemon for the mock bluetoothd and its clients.

    /usr/bin/python3 scripts/bluez-mock/bus.py --dir DIR

The daemon listens on unix:path=DIR/bus and prints its address as the first line of stdout. It runs in the
foreground (--nofork: with --fork it would setsid and outlive a killed parent) as a child of this script, which
ends it when the process that started this script goes (leash.py), on SIGTERM or SIGINT, and dies with it.
"""

import argparse
import os
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import leash  # noqa: E402

CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "test-bus.conf")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", required=True, help="directory for the bus socket")
    args = parser.parse_args()
    leash.unblock_signals()
    address = "unix:path=" + os.path.join(os.path.abspath(args.dir), "bus")
    daemon = subprocess.Popen(
        ["dbus-daemon", "--nofork", "--config-file=" + CONFIG, "--address=" + address, "--print-address=1"],
        preexec_fn=leash.die_with_this_thread)

    def end(*_):
        daemon.kill()
        os._exit(0)

    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, end)
    leash.watch_parent(end)
    sys.exit(daemon.wait())


if __name__ == "__main__":
    main()
