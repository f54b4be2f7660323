#!/usr/bin/env python3
"""Reads an EDF/BDF file with pyedflib, each signal at its own rate, for tests comparing Axon's reading.

    scripts/pyedflib-read.py FILE OUT

OUT.json: [{"label", "rate", "samples", "step"}] per signal (annotations excluded), step = one digital step in the
          signal's physical unit.
OUT.f64:  every signal's samples as float64 little-endian, one signal after the other.
Also prints the directory of pyedflib's own test files (`--data-dir` instead of FILE OUT).
"""
import json
import os
import sys

import numpy as np
import pyedflib


def main():
    if sys.argv[1] == "--data-dir":
        print(os.path.join(os.path.dirname(pyedflib.__file__), "tests", "data"))
        return
    path, out = sys.argv[1], sys.argv[2]
    reader = pyedflib.EdfReader(path)
    signals = []
    with open(out + ".f64", "wb") as values:
        for index in range(reader.signals_in_file):
            header = reader.getSignalHeader(index)
            data = reader.readSignal(index, digital=False)
            span = header["digital_max"] - header["digital_min"]
            signals.append({
                "label": header["label"], "rate": reader.getSampleFrequency(index), "samples": len(data),
                "step": abs(header["physical_max"] - header["physical_min"]) / span if span else 0.0,
            })
            values.write(np.asarray(data, dtype="<f8").tobytes())
    reader.close()
    with open(out + ".json", "w") as handle:
        json.dump(signals, handle)


if __name__ == "__main__":
    main()
