#!/usr/bin/env python3
"""XDF files as LabRecorder writes them when things go wrong, for Axon's tests (Tests/AxonCLITests/XDFLabRecorderTests).

    xdf-labrecorder-fixture.py write PATH   writes the file (a hand-written XDF 1.0 writer: pyxdf only reads)
    xdf-labrecorder-fixture.py pyxdf PATH   prints what pyxdf's load_xdf (default options) makes of it, as JSON

The recording machine's clock T runs from 800 to 1040 s. The sending computer's clock is reset at T = 870 s: its
stamps jump from about 653,170 s back to 250 s (offset −652,300 s before, +620 s after), in every stream, and
LabRecorder's ClockOffset chunks (every 5 s: collection time on the sender's clock, offset to add) jump with them.
- "EEG" (type EEG): 4 float32 channels, 100 Hz nominal and effective, 810–900 s and 960–1020 s: a 60-s pause.
  Each channel: a 10 Hz, 20 µV sine plus noise. Stamps jittered by ±0.3 ms.
- "Aux" (type Accelerometer): 1 channel, 50 Hz nominal, 46.5 Hz effective (7 % slow), 810–1020 s, no pause.
- "Markers" (type Markers): strings at 815, 860, 869.5, 870.5, 880, 990 s and one at 1030 s, after the data.
- an empty stream "Silent" (type Misc, 10 Hz) with a header and a footer but no samples.
Uses only the standard library and NumPy-free random numbers, so the file is the same on every run.
"""
import json
import math
import random
import struct
import sys

RESET_T = 870.0
OFFSET_BEFORE = -652300.0  # add to the sender's stamps before the reset for T
OFFSET_AFTER = 620.0  # after it
MARKERS = [(815.0, "start"), (860.0, "before reset"), (869.5, "just before reset"), (870.5, "just after reset"),
           (880.0, "after reset"), (990.0, "after pause"), (1030.0, "after the data")]


def sender_clock(t):
    """The sending computer's clock at recorder time t."""
    return t - (OFFSET_BEFORE if t < RESET_T else OFFSET_AFTER)


def varlen(n):
    if n < 256:
        return struct.pack("<BB", 1, n)
    if n < 2**32:
        return struct.pack("<BI", 4, n)
    return struct.pack("<BQ", 8, n)


def chunk(tag, content):
    return varlen(len(content) + 2) + struct.pack("<H", tag) + content


def header_xml(name, kind, channels, rate, fmt, source, labels):
    chans = "".join(f"<channel><label>{label}</label><unit>uV</unit><type>{kind}</type></channel>"
                    for label in labels)
    return (f'<?xml version="1.0"?><info><name>{name}</name><type>{kind}</type>'
            f"<channel_count>{channels}</channel_count><nominal_srate>{rate}</nominal_srate>"
            f"<channel_format>{fmt}</channel_format><source_id>{source}</source_id><version>1.1</version>"
            f"<created_at>{sender_clock(805.0)}</created_at><uid>{source}-uid</uid><session_id>default</session_id>"
            f"<hostname>sender</hostname><desc><channels>{chans}</channels></desc></info>").encode()


def samples_chunk(stream_id, rows, fmt):
    """rows: [(stamp, [values] or [strings])]."""
    body = struct.pack("<I", stream_id) + varlen(len(rows))
    for stamp, values in rows:
        body += struct.pack("<Bd", 8, stamp)
        for value in values:
            if fmt == "string":
                data = value.encode()
                body += varlen(len(data)) + data
            elif fmt == "float32":
                body += struct.pack("<f", value)
            else:
                body += struct.pack("<d", value)
    return chunk(3, body)


def write(path):
    rng = random.Random(37)
    # (T, sender stamp, values) per stream, by recorder time.
    eeg = []
    k = 0
    while True:
        t = 810.0 + k / 100.0
        if t >= 1020.0 - 1e-9:
            break
        if not (900.0 - 1e-9 <= t < 960.0 - 1e-9):
            values = [20 * math.sin(2 * math.pi * 10 * t + c) + rng.gauss(0, 2) for c in range(4)]
            eeg.append((t, sender_clock(t) + rng.uniform(-3e-4, 3e-4), values))
        k += 1
    aux = []
    k = 0
    while True:
        t = 810.0 + k / 46.5
        if t >= 1020.0:
            break
        aux.append((t, sender_clock(t) + rng.uniform(-3e-4, 3e-4), [math.sin(t)]))
        k += 1
    markers = [(t, sender_clock(t), [text]) for t, text in MARKERS]

    out = bytearray(b"XDF:")
    out += chunk(1, b'<?xml version="1.0"?><info><version>1.0</version>'
                    b"<datetime>2026-11-20T10:00:00+0000</datetime></info>")
    streams = [(1, "EEG", "EEG", 4, 100, "float32", "sender-eeg", ["Fp1", "Fp2", "O1", "O2"], eeg),
               (2, "Aux", "Accelerometer", 1, 50, "float32", "sender-aux", ["X"], aux),
               (3, "Markers", "Markers", 1, 0, "string", "sender-markers", ["marker"], markers),
               (4, "Silent", "Misc", 1, 10, "float32", "sender-silent", ["S"], [])]
    for sid, name, kind, channels, rate, fmt, source, labels, _ in streams:
        out += chunk(2, struct.pack("<I", sid) + header_xml(name, kind, channels, rate, fmt, source, labels))
    boundary = bytes.fromhex("4365bb17b6a4ac4cac5b9bd5e9c4e9d9")
    # One chunk per stream per second of recorder time, clock offsets every 5 s, a boundary every 10 s.
    by_second = {}
    for sid, _, _, _, _, _, _, _, rows in streams:
        for t, stamp, values in rows:
            by_second.setdefault((int(math.floor(t)), sid), []).append((stamp, values))
    for second in range(800, 1041):
        for sid, _, _, _, _, fmt, _, _, rows in streams:
            block = by_second.get((second, sid))
            if block:
                out += samples_chunk(sid, block, fmt)
        if second % 5 == 0:
            t = float(second)
            for sid, *_ in streams:
                offset = (OFFSET_BEFORE if t < RESET_T else OFFSET_AFTER) + rng.uniform(-2e-5, 2e-5)
                # LabRecorder: collection time on the sender's clock (its local clock minus the offset).
                out += chunk(4, struct.pack("<Idd", sid, t - offset, offset))
        if second % 10 == 0:
            out += chunk(5, boundary)
    for sid, _, _, _, _, _, _, _, rows in streams:
        first = rows[0][1] if rows else 0
        last = rows[-1][1] if rows else 0
        footer = (f'<?xml version="1.0"?><info><first_timestamp>{first}</first_timestamp>'
                  f"<last_timestamp>{last}</last_timestamp><sample_count>{len(rows)}</sample_count></info>")
        out += chunk(6, struct.pack("<I", sid) + footer.encode())
    with open(path, "wb") as f:
        f.write(out)


def peer(path):
    import pyxdf

    streams, _ = pyxdf.load_xdf(path)
    result = {}
    for stream in streams:
        info = stream["info"]
        name = info["name"][0]
        stamps = [float(x) for x in stream["time_stamps"]]
        entry = {"count": len(stamps), "effective_srate": float(info.get("effective_srate", 0) or 0),
                 "segments": [list(map(int, s)) for s in info.get("segments", [])],
                 "first": stamps[0] if stamps else None, "last": stamps[-1] if stamps else None}
        if info["channel_format"][0] == "string":
            entry["stamps"] = stamps
            entry["strings"] = [row[0] for row in stream["time_series"]]
        else:
            # The largest step between successive stamps, and where it is (the pause).
            steps = [b - a for a, b in zip(stamps, stamps[1:])]
            if steps:
                largest = max(range(len(steps)), key=lambda i: steps[i])
                entry["largest_step"] = steps[largest]
                entry["largest_step_after"] = largest
        result[name] = entry
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    {"write": write, "pyxdf": peer}[sys.argv[1]](sys.argv[2])
