#!/usr/bin/env python3
"""Independent reference for the individual alpha frequency (IAF) of Corcoran et al. (2018).

Corcoran, A.W., Alday, P.M., Schlesewsky, M., & Bornkessel-Schlesewsky, I. (2018). Toward a reliable,
automated method of individual alpha frequency (IAF) quantification. Psychophysiology, 55(7), e13064.
doi:10.1111/psyp.13064 -- software: restingIAF v1.0.3 (github.com/corcorana/restingIAF).

Written from the published description and the behaviour of restingIAF, independently of Axon's Swift code.
numpy + scipy only (pyedflib for EDF input). See Tests/Reference/README.md and the spec for the procedure.

Modes:
  (default)      per-channel PAF / CoG / IAW bounds / Q and the pooled (cross-channel) PAF and CoG
  --welch-peak   per channel: argmax of a plain 4-s Welch PSD inside 7-13 Hz and the 7-13 Hz alpha power
Output: JSON on stdout.
"""
import argparse
import json
import math
import os
import struct
import sys

import numpy as np
from scipy import signal
from scipy.integrate import trapezoid


# --------------------------------------------------------------------------------------------- input

def read_edf(path, channels):
    """Physical values of the named signals and their (common) sampling rate."""
    try:
        import pyedflib
        sys.stdout.flush()
        saved = os.dup(1)                       # EDFlib prints diagnostics on stdout; keep our JSON clean
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        try:
            r = pyedflib.EdfReader(path)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        try:
            labels = [l.strip() for l in r.getSignalLabels()]
            data, rates = [], []
            for name in channels:
                i = _index(labels, name, path)
                data.append(r.readSignal(i, digital=False).astype(float))
                rates.append(r.getSampleFrequency(i))
        finally:
            r.close()
        how = "pyedflib"
    except Exception as e:  # EDFlib refuses some real-world files; decode the plain 16-bit records ourselves
        print(f"warning: pyedflib refused {path} ({e}); using the built-in EDF decoder", file=sys.stderr)
        data, rates = _decode_edf(path, channels)
        how = "builtin-edf-decoder"
    if len(set(rates)) != 1:
        raise SystemExit(f"channels have different rates: {rates}")
    return np.vstack(data), float(rates[0]), how


def _index(labels, name, path):
    stripped = [l.strip() for l in labels]
    if name.strip() not in stripped:
        raise SystemExit(f"channel {name!r} not in {path}: {labels}")
    return stripped.index(name.strip())


def _decode_edf(path, channels):
    raw = open(path, "rb").read()
    hdr_bytes = int(raw[184:192])
    nrec = int(raw[236:244])
    rec_dur = float(raw[244:252])
    ns = int(raw[252:256])
    off = 256
    def field(width):
        nonlocal off
        vals = [raw[off + i * width: off + (i + 1) * width].decode("latin-1").strip() for i in range(ns)]
        off += width * ns
        return vals
    labels = field(16); field(80); field(8)
    pmin = [float(v) for v in field(8)]; pmax = [float(v) for v in field(8)]
    dmin = [float(v) for v in field(8)]; dmax = [float(v) for v in field(8)]
    field(80)
    nsamp = [int(v) for v in field(8)]
    rec_len = sum(nsamp) * 2
    avail = (len(raw) - hdr_bytes) // rec_len
    if nrec < 0 or nrec > avail:
        if nrec >= 0:
            print(f"warning: {path}: header says {nrec} records, only {avail} complete; using those", file=sys.stderr)
        nrec = avail
    starts = np.cumsum([0] + nsamp[:-1])
    data, rates = [], []
    for name in channels:
        i = _index(labels, name, path)
        parts = []
        for rec in range(nrec):
            base = hdr_bytes + rec * rec_len + 2 * starts[i]
            parts.append(np.frombuffer(raw[base: base + 2 * nsamp[i]], dtype="<i2"))
        d = np.concatenate(parts).astype(float)
        gain = (pmax[i] - pmin[i]) / (dmax[i] - dmin[i])
        data.append((d - dmin[i]) * gain + pmin[i])
        rates.append(nsamp[i] / rec_dur)
    return data, rates


def read_openbci(path, channels, rate):
    header, rows, fs = None, [], rate
    with open(path, "r", encoding="utf-8", errors="replace") as fh:
        for line in fh:
            line = line.rstrip("\r\n")
            if not line.strip():
                continue
            if line.startswith("%"):
                if "Sample Rate" in line and fs is None:
                    fs = float(line.split("=")[1].strip().split()[0])
                continue
            cells = [c.strip() for c in line.split(",")]
            if header is None:
                header = cells
                cols = [_index(header, c, path) for c in channels]
                continue
            rows.append([float(cells[c]) for c in cols])
    if fs is None:
        raise SystemExit("no sample rate: give --rate")
    return np.asarray(rows, dtype=float).T, fs


def read_csv(path, channels, rate):
    with open(path, "r", encoding="utf-8") as fh:
        header = [c.strip() for c in fh.readline().split(",")]
    if not channels:
        channels = [h for h in header if h.lower() not in ("timestamps", "timestamp", "time")]
    cols = [_index(header, c, path) for c in channels]
    arr = np.genfromtxt(path, delimiter=",", skip_header=1, usecols=cols, dtype=float)
    if arr.ndim == 1:
        arr = arr[:, None]
    return arr.T, float(rate), channels


def synthetic_pink(seed, rate, seconds):
    """1/f ('pink') noise: white Gaussian noise shaped by 1/sqrt(f) in the frequency domain, unit variance."""
    n = int(round(rate * seconds))
    rng = np.random.default_rng(seed)
    spec = np.fft.rfft(rng.standard_normal(n))
    f = np.fft.rfftfreq(n, 1.0 / rate)
    shape = np.zeros_like(f)
    shape[1:] = 1.0 / np.sqrt(f[1:])
    x = np.fft.irfft(spec * shape, n)
    return (x - x.mean()) / x.std() * 10.0  # 10 (uV) RMS


# --------------------------------------------------------------------------------------------- spectrum

def segment_starts(n_total, seg_len, hop, first, stop, windows):
    if windows is not None:
        starts = [int(s) for s in windows]
        bad = [s for s in starts if s < 0 or s + seg_len > n_total]
        if bad:
            raise SystemExit(f"windows outside the data: {bad[:5]}")
        return [s for s in starts if s >= first and s + seg_len <= stop]
    return list(range(first, stop - seg_len + 1, hop))


def mean_periodogram(x, fs, starts, seg_len, nfft):
    """Mean over segments of the one-sided density periodogram: mean removed, periodic Hann, zero-padded to nfft."""
    segs = np.stack([x[:, s:s + seg_len] for s in starts], axis=1)      # channels x segments x seg_len
    win = signal.get_window("hann", seg_len)                              # periodic (fftbins=True) == hann(N, sym=False)
    f, p = signal.periodogram(segs, fs=fs, window=win, nfft=nfft, detrend="constant",
                              return_onesided=True, scaling="density", axis=-1)
    return f, p.mean(axis=1)


# --------------------------------------------------------------------------------------------- IAF

def nearest_bin(f, x):
    return int(np.argmin(np.abs(f - x)))          # first index on a tie (like MATLAB dsearchn / min)


def _sgn(v):
    return int(v > 0) - int(v < 0)


def min_power_threshold(f, p_norm, mpow):
    """log10 threshold: least-squares line through log10(p) vs f, plus mpow x the prediction standard error."""
    y = np.log10(p_norm)
    n = len(f)
    fbar = f.mean()
    sxx = np.sum((f - fbar) ** 2)
    slope = np.sum((f - fbar) * (y - y.mean())) / sxx
    intercept = y.mean() - slope * fbar
    fit = intercept + slope * f
    s = math.sqrt(np.sum((y - fit) ** 2) / (n - 2))
    delta = s * np.sqrt(1.0 + 1.0 / n + (f - fbar) ** 2 / sxx)
    return fit + mpow * delta


def shallow_run_ok(d1_run, rule):
    if rule == "restingiaf":     # what restingIAF's lessThan1 evaluates: abs(d1 < 1), i.e. signed d1 < 1
        return bool(np.all(d1_run < 1.0))
    return bool(np.all(np.abs(d1_run) < 1.0))   # 'abs': |d1| < 1, the stated intent


def find_f1(f, d0, d1, cands, min_pow, slen, ref_bin, rule):
    """Lower IAW bound: highest-frequency minimum / start of a shallow run below the left-most alpha peak."""
    left = ref_bin
    if len(cands) > 1:
        asc = sorted(cands, key=lambda c: c[1])                  # by frequency, ascending (stable)
        for b, _, p in asc:
            if math.log10(p) > min_pow[asc[0][0]] or p > 0.5 * d0[ref_bin]:
                left = b
                break
    found = None
    for k in range(1, left):
        if _sgn(d1[k]) < _sgn(d1[k + 1]):
            found = k - 1 + int(np.argmin(np.abs(d0[k - 1:k + 2])))
        elif abs(d1[k]) < 1.0 and shallow_run_ok(d1[k + 1:k + 1 + slen], rule):
            found = k
        # keep the last (highest-frequency) candidate
    return found, left


def find_f2(f, d0, d1, cands, min_pow, slen, ref_bin, rule):
    """Upper IAW bound: first minimum / start of a shallow run above the right-most alpha peak."""
    right = ref_bin
    if len(cands) > 1:
        desc = sorted(cands, key=lambda c: -c[1])                # by frequency, descending (stable)
        for b, _, p in desc:
            if math.log10(p) > min_pow[desc[0][0]] or p > 0.5 * d0[ref_bin]:
                right = b
                break
    n = len(d1)
    for k in range(right + 1, n - slen):
        if _sgn(d1[k]) < _sgn(d1[k + 1]):
            return k - 1 + int(np.argmin(np.abs(d0[k - 1:k + 2]))), right
        if abs(d1[k]) < 1.0 and shallow_run_ok(d1[k + 1:k + 1 + slen], rule):
            return k, right
    return None, right


def peak_quality(f, d0, d2, peak):
    """Q between the inflection points either side of the peak; Qf = Q / (number of bins spanned)."""
    min1 = None
    for k in range(0, peak):
        if _sgn(d2[k]) > _sgn(d2[k + 1]):
            min1 = k if abs(d2[k]) <= abs(d2[k + 1]) else k + 1        # keep the last one (nearest the peak)
    min2 = None
    for k in range(peak + 1, len(d2) - 1):
        if _sgn(d2[k]) < _sgn(d2[k + 1]):
            min2 = k if abs(d2[k]) <= abs(d2[k + 1]) else k + 1
            break
    if min1 is None or min2 is None or min2 <= min1:
        return None, None, None, None
    q = trapezoid(d0[min1:min2 + 1], f[min1:min2 + 1])
    return q, q / (min2 - min1), float(f[min1]), float(f[min2])


def channel_iaf(f_all, pxx_all, opt):
    res = {"paf": None, "f1": None, "f2": None, "q": None, "reason": None}
    if not np.all(np.isfinite(pxx_all)):
        res["reason"] = "channel spectrum contains NaN/inf"
        return res, None
    lo, hi = nearest_bin(f_all, opt.f_range[0]), nearest_bin(f_all, opt.f_range[1])
    f = f_all[lo:hi + 1]
    p = pxx_all[lo:hi + 1]
    if opt.norm:
        p = p / p.mean()
    if np.any(p <= 0):
        res["reason"] = "zero power in the analysed range"
        return res, None
    df = f[1] - f[0]
    min_pow = min_power_threshold(f, p, opt.mpow)
    kw = dict(window_length=opt.fw, polyorder=opt.k, mode=opt.sg_mode)
    if opt.sg_mode == "constant":
        kw["cval"] = 0.0
    d0 = signal.savgol_filter(p, deriv=0, **kw)
    d1 = signal.savgol_filter(p, deriv=1, delta=df, **kw)
    d2 = signal.savgol_filter(p, deriv=2, delta=df, **kw)
    slen = max(2, int(round(opt.shallow_hz / df)))

    la, ua = nearest_bin(f, opt.alpha[0]), nearest_bin(f, opt.alpha[1])
    cands = []                                                    # (bin, freq, smoothed power) per local maximum
    for k in range(max(la - 1, 0), min(ua + 2, len(d1) - 1)):
        if _sgn(d1[k]) > _sgn(d1[k + 1]):
            b = k if d0[k] >= d0[k + 1] else k + 1
            cands.append((b, float(f[b]), float(d0[b])))
    chan = {"f": f, "d0": d0, "has_bounds": False}
    res["candidates"] = [round(c[1], 4) for c in cands]
    if not cands:
        res["reason"] = "no local maximum (downward zero crossing of the SG derivative) in the alpha window"
        return res, chan
    by_power = sorted(cands, key=lambda c: -c[2])               # stable, like MATLAB sortrows(.., -4)
    top = by_power[0]
    # decision margins (extra, for judging how robust a result is): log10 power above the threshold, and the
    # second-highest candidate's power as a fraction of the highest (PAF needs < 1 - mdiff)
    res["thresholdMargin"] = math.log10(top[2]) - float(min_pow[top[0]])
    res["competitorRatio"] = by_power[1][2] / top[2] if len(by_power) > 1 else None
    if not math.log10(top[2]) > min_pow[top[0]]:
        res["reason"] = "highest alpha-window peak does not exceed the minimum-power threshold (1/f fit + %g SE)" % opt.mpow
        return res, chan
    primary = True
    if len(by_power) > 1 and not top[2] * (1 - opt.mdiff) > by_power[1][2]:
        primary = False
        res["reason"] = ("competing peak at %.3f Hz is within %d%% of the highest (%.3f Hz): no PAF; bounds kept for CoG"
                         % (by_power[1][1], round(opt.mdiff * 100), top[1]))
    f1, _ = find_f1(f, d0, d1, cands, min_pow, slen, top[0], opt.shallow_rule)
    f2, _ = find_f2(f, d0, d1, cands, min_pow, slen, top[0], opt.shallow_rule)
    if f1 is None or f2 is None:
        res["reason"] = (res["reason"] + "; " if res["reason"] else "") + "no IAW bound found"
    else:
        res["f1"], res["f2"] = float(f[f1]), float(f[f2])
        chan["has_bounds"] = True
        chan["f1"], chan["f2"] = f1, f2
    if primary:
        res["paf"] = top[1]
        q, qf, i1, i2 = peak_quality(f, d0, d2, top[0])
        res["q"], res["qArea"], res["inflections"] = qf, q, [i1, i2]
        if qf is None:
            res["reason"] = "no inflection points either side of the peak: PAF kept, weight undefined"
    chan["paf"], chan["q"] = res["paf"], res["q"]
    return res, chan


def pooled(results, chans, cmin):
    out = {"paf": None, "cog": None, "iaw": None, "pafChannels": 0, "cogChannels": 0}
    with_paf = [(r["paf"], r["q"]) for r in results if r["paf"] is not None]
    out["pafChannels"] = len(with_paf)
    if len(with_paf) >= cmin:
        qs = [q for _, q in with_paf if q is not None]
        if qs:
            qmax = max(qs)
            num = sum(paf * q / qmax for paf, q in with_paf if q is not None)
            den = sum(q / qmax for _, q in with_paf if q is not None)
            out["paf"] = num / den
    valid = [c for c in chans if c is not None]
    bounded = [c for c in valid if c["has_bounds"]]
    out["cogChannels"] = len(bounded)
    if bounded:
        f = bounded[0]["f"]
        a = nearest_bin(f, np.mean([f[c["f1"]] for c in bounded]))
        b = nearest_bin(f, np.mean([f[c["f2"]] for c in bounded]))
        out["iaw"] = [float(f[a]), float(f[b])]
        cogs = []
        for r, c in zip(results, chans):
            if c is None:
                r["cog"] = None
                continue
            w = c["d0"][a:b + 1]
            r["cog"] = float(np.sum(w * f[a:b + 1]) / np.sum(w))
            cogs.append(r["cog"])
        if len(bounded) >= cmin:
            out["cog"] = float(np.mean(cogs))
    else:
        for r in results:
            r["cog"] = None
    # extra (not in restingIAF): CoG of each bounded channel over its own f1..f2
    for r, c in zip(results, chans):
        if c is not None and c["has_bounds"]:
            w = c["d0"][c["f1"]:c["f2"] + 1]
            r["cogOwnWindow"] = float(np.sum(w * c["f"][c["f1"]:c["f2"] + 1]) / np.sum(w))
        else:
            r["cogOwnWindow"] = None
    return out


# --------------------------------------------------------------------------------------------- welch peak

def welch_peak(x, fs, labels, band):
    nper = int(round(4 * fs))
    out = []
    f = None
    for lab, row in zip(labels, x):
        if len(row) < nper:
            raise SystemExit(f"need at least {nper} samples for a 4-s Welch window, have {len(row)}")
        f, p = signal.welch(row, fs=fs, window="hann", nperseg=nper, noverlap=nper // 2,
                            detrend="constant", scaling="density")
        sel = (f >= band[0] - 1e-9) & (f <= band[1] + 1e-9)
        i = int(np.argmax(np.where(sel, p, -np.inf)))
        out.append({"label": lab, "peakFrequency": float(f[i]), "peakPsd": float(p[i]),
                    "alphaPower": float(trapezoid(p[sel], f[sel]))})
    nseg = 1 + (x.shape[1] - nper) // (nper - nper // 2)
    return {"channels": out, "nperseg": nper, "noverlap": nper // 2, "segments": nseg,
            "frequencyResolution": float(fs / nper), "band": list(band),
            "alphaPowerRule": "trapezoid of the Welch PSD over the bins with 7 <= f <= 13 Hz"}


# --------------------------------------------------------------------------------------------- CLI

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--edf")
    src.add_argument("--openbci")
    src.add_argument("--csv")
    src.add_argument("--synthetic-pink", type=int, metavar="SEED", help="one synthetic 1/f channel (needs --rate, --duration)")
    ap.add_argument("--duration", type=float, default=60.0, help="seconds of synthetic data")
    ap.add_argument("--channels", help="comma-separated channel labels")
    ap.add_argument("--rate", type=float, help="sampling rate (Hz); required for --csv")
    ap.add_argument("--from", dest="t_from", type=float, help="start (s)")
    ap.add_argument("--to", dest="t_to", type=float, help="end (s), exclusive")
    ap.add_argument("--windows", help="JSON list of segment start sample indices (into the file's samples)")
    ap.add_argument("--segment-length", type=int, default=256)
    ap.add_argument("--hop", type=int, default=None, help="default: segment length // 2")
    ap.add_argument("--nfft", type=int, default=None, help="default: 4 x segment length")
    ap.add_argument("--f-range", type=float, nargs=2, default=[1.0, 40.0], help="analysed range (Hz) [1 40]")
    ap.add_argument("--alpha", type=float, nargs=2, default=[7.0, 13.0], help="peak search window W (Hz) [7 13]")
    ap.add_argument("--fw", type=int, default=11, help="SG frame width in bins (odd) [11]")
    ap.add_argument("--k", type=int, default=5, help="SG polynomial order [5]")
    ap.add_argument("--sg-mode", default="interp", choices=["interp", "constant", "nearest", "mirror", "wrap"],
                    help="scipy savgol_filter edge mode [interp]; 'constant' (zeros) = restingIAF's conv(...,'same')")
    ap.add_argument("--mpow", type=float, default=1.0, help="minimum-power threshold in prediction SEs [1]")
    ap.add_argument("--mdiff", type=float, default=0.20, help="primary-peak margin over competitors [0.20]")
    ap.add_argument("--cmin", type=int, default=None, help="min channels for pooled values [min(3, channels)]")
    ap.add_argument("--shallow-hz", type=float, default=1.0, help="length of the shallow-slope run (Hz) [1]")
    ap.add_argument("--shallow-rule", default="abs", choices=["restingiaf", "abs"],
                    help="run test: 'abs' = |d1| < 1 (stated intent, default), 'restingiaf' = d1 < 1 (what lessThan1 evaluates)")
    ap.add_argument("--no-norm", dest="norm", action="store_false", help="do not divide the spectrum by its mean")
    ap.add_argument("--welch-peak", action="store_true", help="plain 4-s Welch peak and 7-13 Hz alpha power instead")
    ap.add_argument("--debug-spectrum", action="store_true", help="also print f, normalised and smoothed spectra")
    opt = ap.parse_args(argv)

    chans = [c.strip() for c in opt.channels.split(",")] if opt.channels else []
    reader = None
    if opt.edf:
        if not chans:
            raise SystemExit("--channels required with --edf")
        x, fs, reader = read_edf(opt.edf, chans)
    elif opt.openbci:
        if not chans:
            chans = [f"EXG Channel {i}" for i in range(8)]
        x, fs = read_openbci(opt.openbci, chans, opt.rate)
    elif opt.csv:
        if opt.rate is None:
            raise SystemExit("--rate required with --csv")
        x, fs, chans = read_csv(opt.csv, chans, opt.rate)
    else:
        if opt.rate is None:
            raise SystemExit("--rate required with --synthetic-pink")
        x = synthetic_pink(opt.synthetic_pink, opt.rate, opt.duration)[None, :]
        fs, chans = float(opt.rate), [f"pink-seed-{opt.synthetic_pink}"]

    n_total = x.shape[1]
    first = int(round(opt.t_from * fs)) if opt.t_from is not None else 0
    stop = int(round(opt.t_to * fs)) if opt.t_to is not None else n_total
    stop = min(stop, n_total)

    if opt.welch_peak:
        out = welch_peak(x[:, first:stop], fs, chans, (7.0, 13.0))
        out.update({"sampleRate": fs, "fromSample": first, "toSample": stop})
        print(json.dumps(out, indent=1))
        return

    L = opt.segment_length
    hop = opt.hop or L // 2
    nfft = opt.nfft or 4 * L
    windows = json.load(open(opt.windows)) if opt.windows else None
    starts = segment_starts(n_total, L, hop, first, stop, windows)
    if not starts:
        raise SystemExit("no complete segment in the selected range")
    if opt.fw % 2 == 0 or opt.k >= opt.fw:
        raise SystemExit("--fw must be odd and > --k")
    if opt.f_range[1] > fs / 2:
        raise SystemExit("--f-range upper edge above Nyquist")
    f, pxx = mean_periodogram(x, fs, starts, L, nfft)
    cmin = opt.cmin if opt.cmin is not None else min(3, len(chans))

    results, cdata = [], []
    for lab, p in zip(chans, pxx):
        r, c = channel_iaf(f, p, opt)
        r = {"label": lab, **r}
        results.append(r)
        cdata.append(c)
    summary = pooled(results, cdata, cmin)
    for r in results:   # stable key order for readers
        for key in ("paf", "cog", "f1", "f2", "q", "reason"):
            r.setdefault(key, None)
    if opt.debug_spectrum:
        for r, c in zip(results, cdata):
            if c is not None:
                r["spectrum"] = {"f": c["f"].tolist(), "d0": c["d0"].tolist()}
    df = float(fs / nfft)
    out = {
        "channels": results,
        "paf": summary["paf"], "cog": summary["cog"], "iaw": summary["iaw"],
        "pafChannels": summary["pafChannels"], "cogChannels": summary["cogChannels"], "cmin": cmin,
        "segments": len(starts), "frequencyResolution": df, "sampleRate": fs,
        "segmentLength": L, "hop": None if windows is not None else hop, "nfft": nfft,
        "firstSegmentStart": starts[0], "lastSegmentStart": starts[-1],
        "parameters": {"fRange": opt.f_range, "alpha": opt.alpha, "fw": opt.fw, "k": opt.k, "sgMode": opt.sg_mode,
                       "mpow": opt.mpow, "mdiff": opt.mdiff, "shallowBins": max(2, int(round(opt.shallow_hz / df))),
                       "shallowRule": opt.shallow_rule, "norm": opt.norm},
    }
    if reader:
        out["edfReader"] = reader
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
