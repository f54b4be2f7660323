#!/usr/bin/env python3
"""Runs elm327-emulator (the `elm` module of .venv-peers) on a TCP port for the OBD tests, and keeps it on a leash.

Usage: obd-emulator.py PORT [SCENARIO]   (scenario defaults to `car`)
       obd-emulator.py pty [SCENARIO]    (the emulator's own pseudo-terminal instead of TCP)

Prints `READY PORT` once the emulator listens on 127.0.0.1:PORT (`READY /dev/pts/N` in pty mode, once the
emulator has named its pty). Then reads commands on standard input:
  kill   SIGKILL the emulator (its whole process group), as if the dongle vanished; prints `KILLED`
  start  start it again on the same port; prints `READY PORT`
  pause  SIGSTOP it: the port stays open but nothing answers, like a hung dongle; prints `PAUSED`
  resume SIGCONT it; prints `RESUMED`
  speed KMH  from now on answer vehicle speed (PID 0x0D) with KMH and engine speed (0x0C) with 800 + 20 × KMH rpm,
         instead of the scenario's recorded values, across kills and restarts; prints `SPEED KMH`
  served print `SERVED N`: how many speed answers were given since the first `speed` command
End of input (the test process closed the pipe or died) or SIGTERM/SIGINT kills the emulator and exits, so no
emulator outlives the test that started it.
"""
import os
import signal
import subprocess
import sys
import tempfile
import time


def emulate(drive, arguments):
    """The emulator itself (`obd-emulator.py --emulate DRIVEFILE ELM-ARGUMENTS…`): elm327-emulator's `car` scenario,
    whose speed and engine speed follow DRIVEFILE's first line once it holds a number; every such speed answer
    appends a line to DRIVEFILE.served."""
    import runpy
    from elm.obd_message import ObdMessage, HD, SZ, DT, ECU_R_ADDR_E

    def driven():
        try:
            with open(drive) as text:
                return int(text.readline().strip())
        except (OSError, ValueError):
            return None

    def footer(recorded, answer):
        def respond(self, cmd, pid, uc_val):
            kmh = driven()
            if kmh is None:
                return self.choice(recorded)
            if pid == "SPEED":
                with open(drive + ".served", "a") as served:
                    served.write(f"{kmh}\n")
            return answer(kmh)
        return respond

    from elm.elm import Elm

    listen = Elm.socket_server

    def socket_server(self):
        # The keeper's sign that the emulator listens: a probe of its own would take the emulator's one client slot
        # from a client that connects at the same moment (a logger retrying), and then wait for it in vain.
        listening = listen(self)
        if listening:
            open(drive + ".listening", "w").close()
        return listening

    Elm.socket_server = socket_server
    car = ObdMessage["car"]
    for pid, answer in (
        ("SPEED", lambda kmh: HD(ECU_R_ADDR_E) + SZ("03") + DT("41 0D %02X" % kmh)),
        ("RPM", lambda kmh: HD(ECU_R_ADDR_E) + SZ("04") + DT("41 0C %02X %02X" % divmod((800 + 20 * kmh) * 4, 256))),
    ):
        entry = dict(car[pid])
        entry["ResponseFooter"] = footer(entry.pop("Response"), answer)
        car[pid] = entry
    sys.argv = ["elm"] + arguments
    runpy.run_module("elm", run_name="__main__", alter_sys=True)


if len(sys.argv) > 2 and sys.argv[1] == "--emulate":
    emulate(sys.argv[2], sys.argv[3:])
    sys.exit(0)

drive_file = tempfile.NamedTemporaryFile(prefix="axon-elm-drive-", suffix=".txt", delete=False)
drive_file.close()
drive = drive_file.name
pty = sys.argv[1] == "pty"
port = 0 if pty else int(sys.argv[1])
scenario = sys.argv[2] if len(sys.argv) > 2 else "car"
emulator = None


def start_pty():
    global emulator
    # In batch mode the emulator writes the path of its pty as the first line of the batch file.
    batch = tempfile.NamedTemporaryFile(prefix="axon-elm-", suffix=".out", delete=False)
    batch.close()
    emulator = subprocess.Popen(
        [sys.executable, os.path.abspath(__file__), "--emulate", drive, "-s", scenario, "-b", batch.name],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        cwd=tempfile.gettempdir())
    deadline = time.monotonic() + 30
    try:
        while time.monotonic() < deadline and emulator.poll() is None:
            with open(batch.name) as output:
                first = output.readline().strip()
            if first.startswith("/dev/") and os.path.exists(first):
                print(f"READY {first}", flush=True)
                return
            time.sleep(0.1)
    finally:
        os.unlink(batch.name)
    print("FAILED no pty", flush=True)


def start():
    global emulator
    if pty:
        start_pty()
        return
    # Batch mode (-b) keeps the emulator off the terminal; its output goes to /dev/null, and it runs in the temporary
    # folder because it writes elm.log where it starts. New session: its own process group, killed as one.
    try:
        os.unlink(drive + ".listening")
    except OSError:
        pass
    emulator = subprocess.Popen(
        [sys.executable, os.path.abspath(__file__), "--emulate", drive, "-s", scenario, "-n", str(port), "-b",
         os.devnull],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        cwd=tempfile.gettempdir())
    # Ready once its socket listens (the emulator says so in DRIVEFILE.listening): a client connecting from then on is
    # accepted and answered.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if emulator.poll() is not None:
            print(f"FAILED exit {emulator.returncode}", flush=True)
            return
        if os.path.exists(drive + ".listening"):
            print(f"READY {port}", flush=True)
            return
        time.sleep(0.05)
    print("FAILED timeout", flush=True)


def kill():
    global emulator
    if emulator is not None and emulator.poll() is None:
        try:
            os.killpg(emulator.pid, signal.SIGCONT)  # a paused emulator dies all the same; this just tidies up
            os.killpg(emulator.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        emulator.wait()
    emulator = None


def stop(*_):
    kill()
    for path in (drive, drive + ".served", drive + ".listening"):
        try:
            os.unlink(path)
        except OSError:
            pass
    sys.exit(0)


signal.signal(signal.SIGTERM, stop)
signal.signal(signal.SIGINT, stop)
start()
for line in sys.stdin:
    command = line.strip()
    if command == "kill":
        kill()
        print("KILLED", flush=True)
    elif command == "start":
        start()
    elif command in ("pause", "resume") and emulator is not None and emulator.poll() is None:
        os.killpg(emulator.pid, signal.SIGSTOP if command == "pause" else signal.SIGCONT)
        print("PAUSED" if command == "pause" else "RESUMED", flush=True)
    elif command.startswith("speed "):
        kmh = int(command.split()[1])
        with open(drive + ".new", "w") as text:
            text.write(f"{kmh}\n")
        os.replace(drive + ".new", drive)
        print(f"SPEED {kmh}", flush=True)
    elif command == "served":
        try:
            with open(drive + ".served") as served:
                count = sum(1 for _ in served)
        except OSError:
            count = 0
        print(f"SERVED {count}", flush=True)
stop()
