#!/usr/bin/env python3
"""Independent reference for band powers: SciPy's Welch PSD integrated over named bands.

Per channel: scipy.signal.welch with segments of --window samples every --hop samples (noverlap = window - hop),
the periodic Hann window, constant (mean) detrending and density scaling, averaged over every segment ('mean').
Absolute power of a band LO-HI = sum of PSD[k] * df over the bins with LO <= f[k] < HI (half-open; an edge within
1e-9 of a bin width of a bin centre counts as on it), in the data's unit squared (uV^2). Relative power = absolute /
sum of the absolute powers of all the bands given * 100 (%), as BrainFlow's get_avg_band_powers.

numpy + scipy only (pyedflib for EDF input, through iaf_reference's readers). Output: JSON on stdout.

python band_power_reference.py (--edf F | --openbci F) --channels A,B,... [--window 256] [--hop N (default: fs)]
                               [--from S] [--to S] [--bands delta=1-4,theta=4-8,alpha=8-13,beta=13-30,gamma=30-45]
"""
import argparse
import json
import os
import sys

import numpy as np
from scipy import signal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from iaf_reference import read_edf, read_openbci  # noqa: E402  (file readers shared with the IAF reference)

DEFAULT_BANDS = "delta=1-4,theta=4-8,alpha=8-13,beta=13-30,gamma=30-45"


def parse_bands(text):
    bands = []
    for entry in text.split(","):
        name, edges = entry.split("=")
        low, high = edges.split("-")
        bands.append((name.strip(), float(low), float(high)))
    return bands


def band_powers(x, fs, window, hop, bands):
    """Welch density PSD per channel, integrated per band; returns (segments, absolute, relative)."""
    win = signal.get_window("hann", window)          # periodic Hann (fftbins=True)
    f, psd = signal.welch(x, fs=fs, window=win, nperseg=window, noverlap=window - hop, detrend="constant",
                          return_onesided=True, scaling="density", average="mean", axis=-1)
    df = f[1] - f[0]
    absolute = np.zeros((x.shape[0], len(bands)))
    for b, (_, low, high) in enumerate(bands):
        inside = (f >= low - 1e-9 * df) & (f < high - 1e-9 * df)
        absolute[:, b] = psd[:, inside].sum(axis=1) * df
    relative = absolute / absolute.sum(axis=1, keepdims=True) * 100.0
    segments = (x.shape[1] - window) // hop + 1
    return segments, absolute, relative


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--edf")
    source.add_argument("--openbci")
    parser.add_argument("--channels", required=True)
    parser.add_argument("--window", type=int, default=256)
    parser.add_argument("--hop", type=int)
    parser.add_argument("--from", dest="start", type=float)
    parser.add_argument("--to", dest="stop", type=float)
    parser.add_argument("--bands", default=DEFAULT_BANDS)
    args = parser.parse_args()
    channels = [c.strip() for c in args.channels.split(",")]
    if args.edf:
        x, fs, _ = read_edf(args.edf, channels)
    else:
        x, fs = read_openbci(args.openbci, channels, None)
    first = int(round(args.start * fs)) if args.start is not None else 0
    stop = int(round(args.stop * fs)) if args.stop is not None else x.shape[1]
    x = x[:, first:stop]
    hop = args.hop if args.hop else int(round(fs))
    bands = parse_bands(args.bands)
    segments, absolute, relative = band_powers(x, fs, args.window, hop, bands)
    print(json.dumps({
        "sampleRate": fs, "samples": int(x.shape[1]), "window": args.window, "hop": hop, "segments": segments,
        "bands": [{"name": n, "low": lo, "high": hi} for n, lo, hi in bands],
        "channels": [{"label": label, "absolute": absolute[c].tolist(), "relative": relative[c].tolist()}
                     for c, label in enumerate(channels)],
    }))


if __name__ == "__main__":
    main()
