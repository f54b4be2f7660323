#!/usr/bin/env python3
"""Replays a Mind Monitor CSV's RAW EEG rows as the app streams them over OSC: one /muse/eeg message per row with
the four electrodes' values as float32 (python-osc, the peer), to 127.0.0.1:PORT. Between the rows it also sends what
a receiver must survive: a bundle of two rows, a message to another address, and a datagram that is not OSC.

    osc-sender.py CSV PORT [--rate HZ]

Prints the number of rows sent as JSON on its last line. Loopback only."""
import argparse
import csv
import json
import socket
import time

from pythonosc.osc_bundle_builder import IMMEDIATELY, OscBundleBuilder
from pythonosc.osc_message_builder import OscMessageBuilder
from pythonosc.udp_client import SimpleUDPClient

ELECTRODES = ["RAW_TP9", "RAW_AF7", "RAW_AF8", "RAW_TP10"]


def eeg_message(values):
    builder = OscMessageBuilder(address="/muse/eeg")
    for value in values:
        builder.add_arg(value, arg_type="f")
    return builder.build()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("csv")
    parser.add_argument("port", type=int)
    parser.add_argument("--rate", type=float, default=256.0)
    args = parser.parse_args()
    with open(args.csv, newline="", encoding="utf-8-sig") as handle:
        rows = [row for row in csv.DictReader(handle) if all(row.get(name) for name in ELECTRODES)]
    values = [[float(row[name]) for name in ELECTRODES] for row in rows]
    client = SimpleUDPClient("127.0.0.1", args.port)
    raw = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    started = time.monotonic()
    index = 0
    while index < len(values):
        if index == 100:
            # Two rows in one bundle.
            bundle = OscBundleBuilder(IMMEDIATELY)
            bundle.add_content(eeg_message(values[index]))
            bundle.add_content(eeg_message(values[index + 1]))
            client.send(bundle.build())
            index += 2
        else:
            client.send(eeg_message(values[index]))
            index += 1
        if index == 200:
            client.send_message("/muse/elements/alpha_absolute", [0.5, 0.6, 0.7, 0.8])
            raw.sendto(b"not an OSC packet", ("127.0.0.1", args.port))
        # Paced at the rate, so that the receiver's socket buffer never overflows.
        delay = started + index / args.rate - time.monotonic()
        if delay > 0:
            time.sleep(delay)
    print(json.dumps({"rows": len(values)}), flush=True)


if __name__ == "__main__":
    main()
