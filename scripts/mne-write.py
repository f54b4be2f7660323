#!/usr/bin/env python3
"""Writes files with MNE-Python for tests that check Axon reads what MNE writes.

    scripts/mne-write.py export-brainvision IN.vhdr OUT.vhdr
        Reads IN with read_raw_brainvision and writes it again with mne.export.export_raw(fmt="brainvision")
        (pybv: IEEE_FLOAT_32 in µV, resolution 0.1). The "New Segment/" annotations MNE makes of the segment markers
        are dropped first: pybv writes its own New Segment with the measurement date.

    scripts/mne-write.py fif VALUES.f64 META.json OUT.fif [--fmt single|double|int|short]
        Makes a RawArray of VALUES (float64 little-endian, channel-major, in volts) with META's "labels", "rate",
        optional "types" (MNE channel types, default eeg), "meas_date" (Unix s), "annotations"
        ([[onset s, duration s, description], ...]) and "cal" (volts per step of every channel, for the integer
        formats: MNE stores value ÷ (range × cal)), "subject_info" (MNE's dict, "birthday" as YYYY-MM-DD) and
        "experimenter", and saves it with Raw.save(OUT, fmt=...). Then writes
        OUT.read.f64: what MNE's own read_raw_fif(OUT).get_data() gives, channel-major float64 in volts.
Exits 1 with MNE's error on standard error when MNE fails.
"""
import datetime
import json
import sys

import numpy as np


def export_brainvision(source, out):
    import mne
    raw = mne.io.read_raw_brainvision(source, preload=True, verbose="error")
    keep = [i for i, d in enumerate(raw.annotations.description) if not d.startswith("New Segment/")]
    raw.set_annotations(raw.annotations[keep] if keep else mne.Annotations([], [], [], orig_time=raw.info["meas_date"]))
    mne.export.export_raw(out, raw, fmt="brainvision", overwrite=True, verbose="error")


def save_fif(values_path, meta_path, out, fmt):
    import mne
    with open(meta_path) as f:
        meta = json.load(f)
    labels = meta["labels"]
    data = np.fromfile(values_path, dtype="<f8").reshape(len(labels), -1)
    info = mne.create_info(labels, meta["rate"], meta.get("types", "eeg"))
    raw = mne.io.RawArray(data, info, verbose="error")
    if meta.get("subject_info") is not None:
        info = meta["subject_info"]
        if "birthday" in info:
            info["birthday"] = datetime.date.fromisoformat(info["birthday"])
        raw.info["subject_info"] = info
    if meta.get("experimenter") is not None:
        raw.info["experimenter"] = meta["experimenter"]
    if meta.get("cal") is not None:
        with raw.info._unlock():
            for ch in raw.info["chs"]:
                ch["cal"] = meta["cal"]
    if meta.get("meas_date") is not None:
        raw.set_meas_date(datetime.datetime.fromtimestamp(meta["meas_date"], tz=datetime.timezone.utc))
    if meta.get("annotations"):
        onsets, durations, texts = zip(*meta["annotations"])
        raw.set_annotations(mne.Annotations(onsets, durations, texts, orig_time=raw.info["meas_date"]))
    raw.save(out, fmt=fmt, overwrite=True, verbose="error")
    back = mne.io.read_raw_fif(out, preload=True, verbose="error")
    back.get_data().astype("<f8").tofile(out + ".read.f64")


def main():
    command = sys.argv[1]
    if command == "export-brainvision":
        export_brainvision(sys.argv[2], sys.argv[3])
    elif command == "fif":
        fmt = sys.argv[sys.argv.index("--fmt") + 1] if "--fmt" in sys.argv else "single"
        save_fif(sys.argv[2], sys.argv[3], sys.argv[4], fmt)
    else:
        sys.exit(f"unknown command {command}")


if __name__ == "__main__":
    main()
