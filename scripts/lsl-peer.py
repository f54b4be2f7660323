#!/usr/bin/env python3
"""The real LSL peer of Axon's LSL tests, on pylsl (liblsl 1.18) from .venv-peers.

Run with LSLAPICFG pointing at scripts/lsl/lsl_api.cfg so every process stays on loopback.

  play     an outlet playing the OpenBCI GUI recording (8 EXG channels, float32, labels and units in the
           description) in real time, each sample stamped start + index / rate; --outage-at/--outage-for destroy
           the outlet for a while and create it again with the same source_id, skipping the samples of the outage.
  receive  inlets on the named streams; pulls until --seconds pass and writes what arrived as JSON: per stream
           the samples, their timestamps and the latency (local_clock at the pull minus the sample's timestamp).
  markers  a string outlet pushing --count markers "stimulus N", --interval apart, once an inlet is connected;
           prints their timestamps.
  session  three outlets in one process, each pushing a counter in real time for --seconds: PREFIX-EEG (8 channels,
           float32, 250 Hz, labels in the description; channel c of sample k is 10 k + c), PREFIX-Aux (3 channels,
           double64, 50 Hz, the same values) and PREFIX-Markers (string, irregular, "marker k" every 0.25 s).
  formats  one outlet per integer format and a regular string stream, each pushing a counter k at 100 Hz for
           --seconds: PREFIX-int8 (k mod 100, -(k mod 100)), PREFIX-int16 (k mod 30000, its negative), PREFIX-int32
           (10^9 + k, its negative), PREFIX-int64 (2^40 + k, its negative), and PREFIX-string ("s k", 1 channel).
  resolve  prints as JSON how many streams named --name answer within --timeout.
  sockets  prints as JSON the remote and local addresses of every IPv4/IPv6 TCP and UDP socket on the machine.

Every line it prints on stdout is one JSON object; progress goes to stderr.
"""
import argparse
import json
import sys
import time

import pylsl


def read_openbci(path):
    rows = []
    with open(path, encoding="utf-8") as handle:
        header_seen = False
        for line in handle:
            if line.startswith("%"):
                continue
            if not header_seen:
                header_seen = True
                continue
            fields = [field.strip() for field in line.split(",")]
            rows.append([float(value) for value in fields[1:9]])
    return rows


def make_outlet(args):
    info = pylsl.StreamInfo(args.name, "EEG", 8, args.rate, "float32", args.source_id)
    channels = info.desc().append_child("channels")
    for index in range(8):
        channel = channels.append_child("channel")
        channel.append_child_value("label", f"EXG{index}")
        channel.append_child_value("unit", "microvolts")
        channel.append_child_value("type", "EEG")
    return pylsl.StreamOutlet(info, chunk_size=0, max_buffered=360)


def play(args):
    rows = read_openbci(args.file)[args.first:args.first + int(args.seconds * args.rate)]
    outlet = make_outlet(args)
    if args.wait_consumer:
        outlet.wait_for_consumers(args.wait_consumer)
    print(json.dumps({"ready": True, "samples": len(rows)}), flush=True)
    start = pylsl.local_clock() + 0.05
    outage = None
    if args.outage_for > 0:
        outage = (int(args.outage_at * args.rate), int((args.outage_at + args.outage_for) * args.rate))
    index = 0
    while index < len(rows):
        if outage and index == outage[0]:
            del outlet
            print(json.dumps({"outage": "start", "index": index}), flush=True)
            time.sleep(max(0.0, start + outage[1] / args.rate - pylsl.local_clock()))
            outlet = make_outlet(args)
            index = outage[1]
            print(json.dumps({"outage": "end", "index": index}), flush=True)
            continue
        due = start + index / args.rate
        now = pylsl.local_clock()
        if due > now:
            time.sleep(due - now)
        outlet.push_sample(rows[index], due)
        index += 1
    time.sleep(args.linger)
    print(json.dumps({"done": True, "pushed": len(rows)}), flush=True)


def markers(args):
    info = pylsl.StreamInfo(args.name, "Markers", 1, 0, "string", args.source_id)
    outlet = pylsl.StreamOutlet(info)
    outlet.wait_for_consumers(30)
    time.sleep(0.5)
    stamps = []
    for index in range(args.count):
        stamp = pylsl.local_clock()
        outlet.push_sample([f"stimulus {index}"], stamp)
        stamps.append(stamp)
        time.sleep(args.interval)
    time.sleep(1)
    print(json.dumps({"done": True, "stamps": stamps}), flush=True)


def session(args):
    def numeric(name, kind, channels, rate, fmt):
        info = pylsl.StreamInfo(name, kind, channels, rate, fmt, f"{name}-source")
        described = info.desc().append_child("channels")
        for index in range(channels):
            channel = described.append_child("channel")
            channel.append_child_value("label", f"{kind}{index + 1}")
            channel.append_child_value("unit", "microvolts" if kind == "EEG" else "au")
            channel.append_child_value("type", kind)
        return pylsl.StreamOutlet(info, chunk_size=0, max_buffered=360)

    outlets = [
        (numeric(f"{args.prefix}-EEG", "EEG", 8, 250.0, "float32"), 250.0, 8),
        (numeric(f"{args.prefix}-Aux", "Aux", 3, 50.0, "double64"), 50.0, 3),
    ]
    markers = pylsl.StreamOutlet(
        pylsl.StreamInfo(f"{args.prefix}-Markers", "Markers", 1, 0, "string", f"{args.prefix}-Markers-source"))
    marker_interval = 0.25
    print(json.dumps({"ready": True}), flush=True)
    start = pylsl.local_clock() + 0.05
    pushed = [0, 0, 0]
    end = start + args.seconds
    while True:
        now = pylsl.local_clock()
        if now >= end:
            break
        for index, (outlet, rate, channels) in enumerate(outlets):
            while start + pushed[index] / rate <= now:
                k = pushed[index]
                outlet.push_sample([float(10 * k + c) for c in range(channels)], start + k / rate)
                pushed[index] += 1
        while start + pushed[2] * marker_interval <= now:
            markers.push_sample([f"marker {pushed[2]}"], start + pushed[2] * marker_interval)
            pushed[2] += 1
        time.sleep(0.002)
    print(json.dumps({"done": True, "pushed": pushed}), flush=True)


def formats(args):
    kinds = [("int8", lambda k: k % 100), ("int16", lambda k: k % 30000), ("int32", lambda k: 10**9 + k),
             ("int64", lambda k: 2**40 + k)]
    outlets = []
    for fmt, value in kinds:
        info = pylsl.StreamInfo(f"{args.prefix}-{fmt}", "Counter", 2, 100.0, fmt, f"{args.prefix}-{fmt}")
        outlets.append((pylsl.StreamOutlet(info), value))
    text = pylsl.StreamOutlet(pylsl.StreamInfo(f"{args.prefix}-string", "Text", 1, 100.0, "string",
                                               f"{args.prefix}-string"))
    print(json.dumps({"ready": True}), flush=True)
    start = pylsl.local_clock() + 0.05
    pushed = 0
    end = start + args.seconds
    while pylsl.local_clock() < end:
        now = pylsl.local_clock()
        while start + pushed / 100.0 <= now:
            stamp = start + pushed / 100.0
            for outlet, value in outlets:
                outlet.push_sample([value(pushed), -value(pushed)], stamp)
            text.push_sample([f"s {pushed}"], stamp)
            pushed += 1
        time.sleep(0.002)
    print(json.dumps({"done": True, "pushed": pushed}), flush=True)


def receive(args):
    inlets = {}
    deadline = time.monotonic() + args.resolve_timeout
    for name in args.names.split(","):
        found = pylsl.resolve_byprop("name", name, 1, max(0.1, deadline - time.monotonic()))
        if not found:
            print(json.dumps({"error": f"stream {name} not found"}), flush=True)
            sys.exit(2)
        inlet = pylsl.StreamInlet(found[0], max_buflen=360)
        inlet.open_stream(timeout=5)
        info = inlet.info(timeout=5)
        labels = []
        channel = info.desc().child("channels").child("channel")
        while not channel.empty():
            labels.append(channel.child_value("label"))
            channel = channel.next_sibling("channel")
        inlets[name] = (inlet, {"name": name, "type": info.type(), "source_id": info.source_id(),
                                "rate": info.nominal_srate(), "labels": labels, "samples": [],
                                "timestamps": [], "latencies": []})
    print(json.dumps({"ready": True}), flush=True)
    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        got = 0
        for inlet, record in inlets.values():
            samples, stamps = inlet.pull_chunk(timeout=0.0)
            now = pylsl.local_clock()
            for sample, stamp in zip(samples, stamps):
                # NaN (a band with no peak) is not JSON: written as null.
                record["samples"].append([None if isinstance(v, float) and v != v else v for v in sample])
                record["timestamps"].append(stamp)
                record["latencies"].append(now - stamp)
            got += len(samples)
        if got == 0:
            time.sleep(0.002)
    with open(args.out, "w", encoding="utf-8") as handle:
        json.dump({name: record for name, (_, record) in inlets.items()}, handle)
    print(json.dumps({"done": True, "counts": {n: len(r["samples"]) for n, (_, r) in inlets.items()}}), flush=True)


def resolve(args):
    found = pylsl.resolve_byprop("name", args.name, 1, args.timeout)
    print(json.dumps({"found": len(found)}), flush=True)


def sockets(_args):
    result = []
    for kind in ("tcp", "udp", "tcp6", "udp6"):
        with open(f"/proc/net/{kind}", encoding="ascii") as handle:
            next(handle)
            for line in handle:
                fields = line.split()
                result.append({"kind": kind, "local": fields[1], "remote": fields[2], "state": fields[3],
                               "inode": fields[9]})
    print(json.dumps(result), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("play")
    p.add_argument("--name", required=True)
    p.add_argument("--source-id", required=True)
    p.add_argument("--file", required=True)
    p.add_argument("--rate", type=float, default=250)
    p.add_argument("--first", type=int, default=0, help="first data row played")
    p.add_argument("--seconds", type=float, default=20)
    p.add_argument("--outage-at", type=float, default=0)
    p.add_argument("--outage-for", type=float, default=0)
    p.add_argument("--wait-consumer", type=float, default=0, help="seconds to wait for an inlet before playing")
    p.add_argument("--linger", type=float, default=1, help="seconds the outlet stays up after the last sample")
    p.set_defaults(run=play)
    m = commands.add_parser("markers")
    m.add_argument("--name", required=True)
    m.add_argument("--source-id", required=True)
    m.add_argument("--count", type=int, default=5)
    m.add_argument("--interval", type=float, default=0.2)
    m.set_defaults(run=markers)
    e = commands.add_parser("session")
    e.add_argument("--prefix", required=True)
    e.add_argument("--seconds", type=float, default=30)
    e.set_defaults(run=session)
    f = commands.add_parser("formats")
    f.add_argument("--prefix", required=True)
    f.add_argument("--seconds", type=float, default=30)
    f.set_defaults(run=formats)
    r = commands.add_parser("receive")
    r.add_argument("--names", required=True)
    r.add_argument("--seconds", type=float, required=True)
    r.add_argument("--resolve-timeout", type=float, default=10)
    r.add_argument("--out", required=True)
    r.set_defaults(run=receive)
    q = commands.add_parser("resolve")
    q.add_argument("--name", required=True)
    q.add_argument("--timeout", type=float, default=2)
    q.set_defaults(run=resolve)
    s = commands.add_parser("sockets")
    s.set_defaults(run=sockets)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
