#!/usr/bin/env python3
"""Replays an NMEA log through gpsfake (Debian's gpsd-clients) on a TCP port for the GPS tests, on a leash.

Usage: gps-replay.py PORT LOGFILE

Starts `gpsfake -n -c 0.1 -P PORT -q LOGFILE` (its own gpsd, sentences every 0.1 s, the log looped), prints
`READY PORT` once gpsd accepts connections, and stops it (its whole process group) at end of standard input — the test
closed the pipe or died — or on SIGTERM/SIGINT, so no gpsd outlives the test that started it.
"""
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

port = int(sys.argv[1])
log = os.path.abspath(sys.argv[2])
replay = subprocess.Popen(
    ["gpsfake", "-n", "-c", "0.1", "-P", str(port), "-q", log],
    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    cwd=tempfile.gettempdir())


def stop(*_):
    if replay.poll() is None:
        try:
            os.killpg(replay.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        replay.wait()
    sys.exit(0)


signal.signal(signal.SIGTERM, stop)
signal.signal(signal.SIGINT, stop)
deadline = time.monotonic() + 30
ready = False
while time.monotonic() < deadline and replay.poll() is None:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            ready = True
            break
    except OSError:
        time.sleep(0.1)
print(f"READY {port}" if ready else "FAILED gpsfake did not start", flush=True)
for _ in sys.stdin:
    pass
stop()
