#!/usr/bin/env python3
"""An Arduino-style serial sensor on a pty: prints one CSV line per sample, `counter,a0,a1,a2`, at a fixed rate, the
way a sketch calling Serial.println does. The counter is an unsigned 16-bit count (wrapping 65535 → 0, as an AVR's
`unsigned int`); a0…a2 are 10-bit ADC readings (0…1023) of a real recording: the TP9, AF7 and AF8 columns of a
muse-lsl CSV, each value µV / 0.5 + 512, rounded and clamped (so µV = reading × 0.5 − 256, what
examples/sensors/arduino-csv.json says). The recording loops at its end.

    arduino-sim.py [--link PATH] [--csv FILE] [--rate HZ] [--seconds S] [--speed X] [--start N] [--drop A-B,C,...]

--link makes PATH a symbolic link to the pty (default /tmp/axon-arduino, the example's path); the pty's own path is
printed as the first line. --drop lists counter values whose lines are never sent (samples lost on the wire), so the
receiver sees the counter jump. A sketch keeps printing whether or not anyone reads: lines the pty cannot take are
dropped, as a UART with no listener drops them. On exit it prints a JSON summary line.
"""
import argparse
import csv
import errno
import json
import os
import signal
import sys
import time
import tty

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_CSV = os.path.join(ROOT, "datasets/muse-p300/data_2017-02-04-15_45_13-first14s.csv")


def readings(path):
    """The recording's rows as 10-bit readings [a0, a1, a2]."""
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    def adc(text):
        return max(0, min(1023, round(float(text) / 0.5 + 512)))
    return [[adc(row["TP9"]), adc(row["AF7"]), adc(row["AF8"])] for row in rows]


def dropped(text):
    values = set()
    for part in filter(None, (text or "").split(",")):
        low, _, high = part.partition("-")
        values.update(range(int(low), int(high or low) + 1))
    return values


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--link", default="/tmp/axon-arduino")
    parser.add_argument("--csv", default=DEFAULT_CSV)
    parser.add_argument("--rate", type=float, default=500.0)
    parser.add_argument("--seconds", type=float, default=0.0, help="stop after this much sensor time (0: never)")
    parser.add_argument("--speed", type=float, default=1.0)
    parser.add_argument("--start", type=int, default=0, help="the first counter value")
    parser.add_argument("--drop", default="", help="counter values (sample numbers from --start) never sent")
    args = parser.parse_args()
    rows = readings(args.csv)
    drop = dropped(args.drop)
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    if args.link:
        try:
            os.unlink(args.link)
        except FileNotFoundError:
            pass
        os.symlink(path, args.link)
    os.set_blocking(master, False)
    print(path, flush=True)
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    period = 1.0 / (args.rate * args.speed)
    started = time.monotonic()
    sample = 0
    sent = skipped = unread = 0
    total = int(round(args.seconds * args.rate)) if args.seconds > 0 else None
    pending = b""
    while not stop and (total is None or sample < total):
        due = int((time.monotonic() - started) / period) + 1
        lines = []
        while sample < due and (total is None or sample < total):
            counter = (args.start + sample) % 65536
            if sample in drop:
                skipped += 1
            else:
                a0, a1, a2 = rows[sample % len(rows)]
                lines.append(f"{counter},{a0},{a1},{a2}\r\n")
                sent += 1
            sample += 1
        pending += "".join(lines).encode()
        if pending:
            try:
                written = os.write(master, pending)
                pending = pending[written:]
            except OSError as error:
                if error.errno not in (errno.EAGAIN, errno.EIO):
                    raise
                if len(pending) > 65536:  # nobody reads: a UART drops what it cannot send
                    unread += pending.count(b"\n")
                    pending = b""
        time.sleep(0.002)
    deadline = time.monotonic() + 2
    while pending and time.monotonic() < deadline:
        try:
            pending = pending[os.write(master, pending):]
        except OSError:
            time.sleep(0.01)
    time.sleep(0.5)
    print(json.dumps({"pty": path, "samples": sample, "sent": sent, "dropped": skipped, "unread": unread}), flush=True)
    if args.link and os.path.islink(args.link) and os.readlink(args.link) == path:
        os.unlink(args.link)


if __name__ == "__main__":
    sys.exit(main())
