#!/usr/bin/env python3
"""SciPy reference for Axon's IIR filters: Butterworth low/high/band-pass and (harmonic) notch designs.

Designs the filter with scipy.signal (butter(..., output='sos') or iirnotch stacked per harmonic), then prints JSON:
its magnitude response in dB (sosfreqz) at --step-spaced frequencies from --step to --fmax Hz, a deterministic test
signal, its zero-phase output (sosfiltfilt, default padding) and its causal output started from the steady state of
the first value (sosfilt with zi = sosfilt_zi(sos) * x[0]). Written against SciPy's documented API, independently of
Axon's Swift code.

Usage: filter_reference.py --kind lowpass|highpass|bandpass|notch --cutoff F [F2] --fs HZ [--order N]
                           [--quality Q] [--harmonics] [--step 0.5] [--fmax 100] [--seconds 8] [--seed 1]
       filter_reference.py --batch     (stdin: one JSON array of such arguments per line; stdout: one JSON object
                                        per line, in order: SciPy is imported once for every case)
"""
import argparse
import json
import math
import sys

import numpy as np
from scipy import signal


def design(args):
    if args.kind == "notch":
        f0 = args.cutoff[0]
        sections, k = [], 1
        while k * f0 < args.fs / 2 and (k == 1 or args.harmonics):
            b, a = signal.iirnotch(k * f0, args.quality, fs=args.fs)
            sections.append(np.concatenate([b, a]))
            k += 1
        return np.array(sections)
    edges = args.cutoff[0] if args.kind in ("lowpass", "highpass") else args.cutoff[:2]
    return signal.butter(args.order, edges, btype=args.kind, fs=args.fs, output="sos")


def test_signal(fs, seconds, seed):
    """A 25 mV DC offset with a slow drift, 3 and 10 Hz rhythms, 50 and 60 Hz mains and white noise (µV)."""
    n = int(round(seconds * fs))
    t = np.arange(n) / fs
    rng = np.random.default_rng(seed)
    return (25000 + 40 * t + 5 * np.sin(2 * np.pi * 3 * t) + 20 * np.sin(2 * np.pi * 10 * t + 0.3)
            + 8 * np.sin(2 * np.pi * 50 * t) + 6 * np.sin(2 * np.pi * 60 * t + 1.1) + 10 * rng.standard_normal(n))


def finite_or_none(values):
    """JSON has no infinities: a response of exactly zero (-inf dB) becomes null."""
    return [float(v) if math.isfinite(v) else None for v in values]


def parse(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--kind", required=True, choices=["lowpass", "highpass", "bandpass", "notch"])
    parser.add_argument("--cutoff", type=float, nargs="+", required=True)
    parser.add_argument("--fs", type=float, required=True)
    parser.add_argument("--order", type=int, default=4)
    parser.add_argument("--quality", type=float, default=30.0)
    parser.add_argument("--harmonics", action="store_true")
    parser.add_argument("--step", type=float, default=0.5)
    parser.add_argument("--fmax", type=float, default=100.0)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args(argv)


def reference(args):
    sos = design(args)
    count = int(round(args.fmax / args.step))
    frequencies = args.step * np.arange(1, count + 1)
    _, response = signal.sosfreqz(sos, worN=frequencies, fs=args.fs)
    with np.errstate(divide="ignore"):
        decibels = 20 * np.log10(np.abs(response))
    x = test_signal(args.fs, args.seconds, args.seed)
    zi = signal.sosfilt_zi(sos)
    causal, _ = signal.sosfilt(sos, x, zi=zi * x[0])
    return json.dumps({
        "kind": args.kind, "order": args.order, "cutoff": args.cutoff, "fs": args.fs, "quality": args.quality,
        "harmonics": args.harmonics, "sos": sos.tolist(),
        "frequencies": frequencies.tolist(), "decibels": finite_or_none(decibels),
        "signal": x.tolist(), "zeroPhase": signal.sosfiltfilt(sos, x).tolist(), "causal": causal.tolist(),
    })


def main():
    if sys.argv[1:] == ["--batch"]:
        for line in sys.stdin:
            if line.strip():
                print(reference(parse(json.loads(line))), flush=True)
    else:
        print(reference(parse(sys.argv[1:])))


if __name__ == "__main__":
    main()
