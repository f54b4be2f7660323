#!/usr/bin/env python3
"""Checks an EDF+/BDF+ file written by Axon with two independent readers, pyedflib (EDFlib) and MNE.

    scripts/check-edf.py FILE --expect-json EXPECT.json

EXPECT.json:
    labels, units       lists, exact (units as written: "uV" for µV)
    rate                samples per second, exact
    duration            seconds, exact (or min_duration: at least this many seconds)
    values              optional path of float64 little-endian samples, channel-major [channel][sample], with
    steps               the physical size of one digital step per channel: every sample read must be within one step
    start               optional Unix time of the first sample: the start date and time must be its whole second (UTC)
    annotations         [{"onset": seconds, "text": "..."}]: each must be present with its onset within one sample
                        (with "annotation_margin": M, only those with onset < the file's duration - M seconds:
                        a file cut short by a killed process holds the annotations up to its last record)
Prints one line per reader and exits 0 when both agree with the expectation, 1 otherwise.
"""
import argparse
import datetime
import json
import sys
import warnings

import numpy as np


def fail(reader, message):
    print(f"{reader}: FAIL {message}")
    return False


def check(reader, labels, units, rate, n_samples, data, onsets, texts, expect, start=None):
    ok = True
    if "start" in expect and start is not None:
        want = datetime.datetime.fromtimestamp(int(expect["start"]), datetime.timezone.utc).replace(tzinfo=None)
        if start.replace(microsecond=0, tzinfo=None) != want:
            ok = fail(reader, f"start {start} != {want}")
    if labels != expect["labels"]:
        ok = fail(reader, f"labels {labels} != {expect['labels']}")
    if units != expect["units"]:
        ok = fail(reader, f"units {units} != {expect['units']}")
    if any(abs(r - expect["rate"]) > 1e-9 for r in rate):
        ok = fail(reader, f"rate {rate} != {expect['rate']}")
    duration = n_samples / expect["rate"]
    if "duration" in expect and abs(duration - expect["duration"]) > 1e-9:
        ok = fail(reader, f"duration {duration} != {expect['duration']}")
    if "min_duration" in expect and duration < expect["min_duration"]:
        ok = fail(reader, f"duration {duration} < {expect['min_duration']}")
    worst = 0.0
    if "values" in expect:
        expected = np.fromfile(expect["values"], dtype="<f8").reshape(len(expect["labels"]), -1)
        if expected.shape[1] != n_samples:
            ok = fail(reader, f"{n_samples} samples, expected {expected.shape[1]}")
        else:
            for channel, step in enumerate(expect["steps"]):
                error = np.max(np.abs(data[channel] - expected[channel]))
                worst = max(worst, error / step)
                if error > step * (1 + 1e-9):
                    ok = fail(reader, f"channel {labels[channel]}: max error {error} > one step {step}")
    found = 0
    for annotation in expect.get("annotations", []):
        margin = expect.get("annotation_margin")
        if margin is not None and annotation["onset"] >= duration - margin:
            continue
        matches = [o for o, t in zip(onsets, texts) if t == annotation["text"]
                   and abs(o - annotation["onset"]) <= 1 / expect["rate"] + 1e-9]
        if not matches:
            near = [(o, t) for o, t in zip(onsets, texts) if t == annotation["text"]][:3]
            ok = fail(reader, f"annotation {annotation} missing (same text at {near})")
        found += 1
    if ok:
        print(f"{reader}: ok {len(labels)} channels, {n_samples} samples ({duration:g} s), worst error "
              f"{worst:.3f} steps, {found} annotations matched of {len(texts)} read")
    return ok


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--expect-json", required=True)
    args = parser.parse_args()
    with open(args.expect_json) as f:
        expect = json.load(f)
    ok = True

    import pyedflib
    reader = pyedflib.EdfReader(args.file)
    try:
        count = reader.signals_in_file
        labels = reader.getSignalLabels()
        units = [reader.getPhysicalDimension(i) for i in range(count)]
        rates = [reader.getSampleFrequency(i) for i in range(count)]
        n_samples = int(reader.getNSamples()[0]) if count else 0
        data = np.array([reader.readSignal(i) for i in range(count)])
        onsets, _, texts = reader.readAnnotations()
        ok &= check("pyedflib", labels, units, rates, n_samples, data, list(onsets), list(texts), expect,
                    reader.getStartdatetime())
    finally:
        reader.close()

    import mne
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        read = mne.io.read_raw_bdf if args.file.lower().endswith(".bdf") else mne.io.read_raw_edf
        raw = read(args.file, preload=True, verbose="error")
    orig_units = getattr(raw, "_orig_units", {})
    labels = list(raw.ch_names)
    # MNE reports the header's "uV" as "µV".
    units = [orig_units.get(label, "").replace("µV", "uV") for label in labels]
    data = raw.get_data()
    scale = np.array([1e6 if u == "uV" else (1e3 if u == "mV" else 1.0) for u in units])
    data = data * scale[:, None]
    ok &= check("mne", labels, units, [raw.info["sfreq"]], raw.n_times, data,
                list(raw.annotations.onset), list(raw.annotations.description), expect, raw.info["meas_date"])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
