#!/usr/bin/env python3
"""Reads an EDF/BDF, BrainVision (.vhdr) or FIF (.fif) file with MNE-Python and writes what MNE makes of it, for
tests comparing Axon's reading.

    scripts/mne-read.py FILE OUT [--find-events]

OUT.json: {"labels": [...], "units": [...], "rate": Hz, "samples": n, "warnings": [MNE's warnings],
           "annotations": [{"sample": onset in samples from the first, "text": description}, ...], "meas_date": Unix s or null}
OUT.f64:  the samples as float64 little-endian, channel-major [channel][sample], in each channel's unit as written
          (MNE returns volts for uV and mV: scaled back; a FIF file has no units as written: volts stay volts).
With --find-events OUT.json also has the triggers of a BDF's BioSemi Status channel, as [[sample, code], ...] with
the codes masked to bits 0-15: "events" from mne.find_events(raw, stim_channel="Status", consecutive=True,
mask=0xFFFF) and "events_default" with MNE's default consecutive="increasing".
Exits 1 with MNE's error on standard error when MNE cannot read the file.
"""
import json
import sys
import warnings

import numpy as np


def main():
    path, out = sys.argv[1], sys.argv[2]
    find_events = "--find-events" in sys.argv[3:]
    import mne
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lower = path.lower()
        read = (mne.io.read_raw_bdf if lower.endswith(".bdf") else mne.io.read_raw_brainvision
                if lower.endswith(".vhdr") else mne.io.read_raw_fif if lower.endswith(".fif")
                else mne.io.read_raw_edf)
        raw = read(path, preload=True, verbose="error")
    orig_units = getattr(raw, "_orig_units", {})
    labels = list(raw.ch_names)
    units = [orig_units.get(label, "").replace("µV", "uV") for label in labels]
    scale = np.array([1e6 if u == "uV" else (1e3 if u == "mV" else 1.0) for u in units])
    data = raw.get_data() * scale[:, None]
    data.astype("<f8").tofile(out + ".f64")
    reading = {"labels": labels, "units": units, "rate": float(raw.info["sfreq"]), "samples": int(raw.n_times),
               "warnings": [str(w.message) for w in caught],
               "annotations": [{"sample": int(round((a["onset"] - raw.first_time) * raw.info["sfreq"])),
                                "text": a["description"]} for a in raw.annotations],
               "meas_date": raw.info["meas_date"].timestamp() if raw.info["meas_date"] is not None else None}
    if find_events:
        for key, consecutive in [("events", True), ("events_default", "increasing")]:
            events = mne.find_events(raw, stim_channel="Status", consecutive=consecutive, mask=0xFFFF,
                                     mask_type="and", verbose="error")
            reading[key] = [[int(e[0]), int(e[2])] for e in events]
    with open(out + ".json", "w") as f:
        json.dump(reading, f)


if __name__ == "__main__":
    main()
