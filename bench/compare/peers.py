"""The Python peers doing axon bench's hop on the same signal: BrainFlow's DataFilter one window at a time, NumPy or
SciPy vectorised over every hop of a recording at once, and Axon's own engine through its Python package (axon_eeg,
fed a minute of samples per call).

One hop = for every channel, the last `window` samples (the power of two >= one second: 256 at 250 Hz), mean
removed, Hann window, real FFT, power spectrum, dominant frequency in 3-7, 7-13 and 14-24 Hz (largest bin,
log-parabolic refinement, clamped to the band). Prints one JSON object.

    python peers.py numpy --channels 4 --rate 250 --seconds 3600 --repetitions 5

`axon-python` imports axon_eeg from python/src over the library AXON_LIBRARY names (run.sh builds it in release).
"""

import argparse
import json
import math
import time

import numpy as np

BANDS = [(3.0, 7.0), (7.0, 13.0), (14.0, 24.0)]


def bench_signal(channels, rate):
    """axon bench's ten-second loop: the same formula, 64-bit LCG and seed; frames x channels."""
    frames = rate * 10
    values = np.empty((frames, channels))
    state = 12345
    mask = (1 << 64) - 1
    noise = np.empty(frames * channels)
    for index in range(frames * channels):
        state = (state * 6364136223846793005 + 1442695040888963407) & mask
        noise[index] = (state >> 11) * 2.0**-53 - 0.5
    noise = noise.reshape(frames, channels)
    t = np.arange(frames)[:, None] / rate
    channel = np.arange(channels)[None, :]
    values[:] = (20 * np.sin(2 * np.pi * 10.3 * t + channel) + 6 * np.sin(2 * np.pi * 5.1 * t)
                 + 4 * np.sin(2 * np.pi * 19.7 * t) + 8 * noise + 1000)
    return values


def window_size(rate):
    size = 1
    while size < rate:
        size *= 2
    return size


def band_bins(rate, size):
    width = rate / size
    return [(int(np.ceil(lo / width)), int(np.floor(hi / width)), lo, hi) for lo, hi in BANDS]


def refine(power, k, rate, size, lo, hi):
    """Dominant frequency from peak bins k (any shape): log-parabolic vertex, clamped to the band."""
    bins = power.shape[-1]
    inner = np.clip(k, 1, bins - 2)
    a = np.log(np.take_along_axis(power, (inner - 1)[..., None], -1)[..., 0])
    b = np.log(np.take_along_axis(power, inner[..., None], -1)[..., 0])
    c = np.log(np.take_along_axis(power, (inner + 1)[..., None], -1)[..., 0])
    d = a - 2 * b + c
    with np.errstate(divide="ignore", invalid="ignore"):
        offset = np.where((d < 0) & (k == inner), np.clip(0.5 * (a - c) / d, -1, 1), 0.0)
    return np.clip((k + offset) * rate / size, lo, hi)


def refine_scalar(power, k, rate, size, lo, hi):
    """refine() for one peak bin, in plain Python floats (what a per-window loop would write)."""
    offset = 0.0
    if 0 < k < len(power) - 1 and power[k - 1] > 0 and power[k] > 0 and power[k + 1] > 0:
        a, b, c = math.log(power[k - 1]), math.log(power[k]), math.log(power[k + 1])
        d = a - 2 * b + c
        if d < 0:
            offset = max(-1.0, min(1.0, 0.5 * (a - c) / d))
    return min(max((k + offset) * rate / size, lo), hi)


def vectorised(module, recording, rate, size, hop):
    """Every hop of the recording at once on a strided view: NumPy's or SciPy's FFT."""
    view = np.lib.stride_tricks.sliding_window_view(recording, size, axis=0)[::hop]  # hops x channels x size
    taper = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(size) / size)
    if module == "scipy":
        import scipy.fft
        import scipy.signal
        x = scipy.signal.detrend(view, axis=-1, type="constant")
        x *= taper
        spectrum = scipy.fft.rfft(x, axis=-1, workers=1)
    else:
        x = view - view.mean(axis=-1, keepdims=True)
        x *= taper
        spectrum = np.fft.rfft(x, axis=-1)
    power = spectrum.real**2 + spectrum.imag**2
    dominant = [refine(power, lo_bin + np.argmax(power[..., lo_bin:hi_bin + 1], axis=-1), rate, size, lo, hi)
                for lo_bin, hi_bin, lo, hi in band_bins(rate, size)]
    return np.stack(dominant, axis=-1)  # hops x channels x bands


def brainflow_hops(loop, rate, size, hop, hops):
    """One window at a time through BrainFlow's DataFilter: detrend (constant), PSD with a Hann window."""
    from brainflow.data_filter import DataFilter, DetrendOperations, WindowOperations
    constant = DetrendOperations.CONSTANT.value
    hanning = WindowOperations.HANNING.value
    frames, channels = loop.shape
    extended = np.concatenate([loop, loop[:size]])
    bins = band_bins(rate, size)
    last = None
    for index in range(hops):
        start = (index * hop) % frames
        for channel in range(channels):
            data = np.ascontiguousarray(extended[start:start + size, channel])
            DataFilter.detrend(data, constant)
            power, _ = DataFilter.get_psd(data, rate, hanning)
            last = [refine_scalar(power, lo_bin + int(np.argmax(power[lo_bin:hi_bin + 1])), rate, size, lo, hi)
                    for lo_bin, hi_bin, lo, hi in bins]
    return last


def axon_python(recording, rate, size, hop, hops, block_seconds=60):
    """Axon's engine from Python (axon_eeg over libAxonC.so), configured as axon bench's: the hop's window, a
    one-minute baseline and indicators; fed `block_seconds` of samples per push (a minute: a notebook working through
    a recording; one ctypes call each, the GIL released), the spectra taken after each push as NumPy structured
    arrays. The dominant frequencies of the last channel at the tenth hop, as the other systems report them."""
    import axon_eeg

    channels = recording.shape[1]
    block = np.ascontiguousarray(recording.T)  # channels x frames, as NumPy users hold EEG
    engine = axon_eeg.Engine(rate, channels=channels, window=size, hop=hop)
    tenth = None
    step = block_seconds * hop
    for start in range(0, block.shape[1], step):
        engine.push(block[:, start:start + step])
        spectra = engine.spectra()
        if tenth is None and len(spectra):
            rows = spectra[(spectra["window"] == 9) & (spectra["channel"] == channels - 1)]
            if len(rows):
                tenth = [float(v) for v in rows["dominant_hz"][0]]
    engine.close()
    return tenth


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("system", choices=["brainflow", "numpy", "scipy", "axon-python"])
    parser.add_argument("--channels", type=int, default=4)
    parser.add_argument("--rate", type=int, default=250)
    parser.add_argument("--seconds", type=int, default=3600, help="seconds of device data per repetition")
    parser.add_argument("--repetitions", type=int, default=5)
    args = parser.parse_args()

    rate, size, hop = args.rate, window_size(args.rate), args.rate
    loop = bench_signal(args.channels, rate)
    hops = args.seconds
    times = []
    if args.system == "brainflow":
        brainflow_hops(loop, rate, size, hop, 10)  # warm up
        for _ in range(args.repetitions):
            start = time.perf_counter()
            check = brainflow_hops(loop, rate, size, hop, hops)
            times.append(time.perf_counter() - start)
        check = brainflow_hops(loop, rate, size, hop, 10)
        name = "BrainFlow DataFilter (Python)"
    elif args.system == "axon-python":
        frames = hops * hop + size
        recording = np.ascontiguousarray(np.tile(loop, (frames // len(loop) + 1, 1))[:frames])
        axon_python(recording[:70 * hop + size], rate, size, hop, 70)  # warm up: the FFT plans, ctypes
        for _ in range(args.repetitions):
            start = time.perf_counter()
            check = axon_python(recording, rate, size, hop, hops)
            times.append(time.perf_counter() - start)
        name = "Axon engine from Python (axon_eeg)"
    else:
        # The recording: the loop tiled to `seconds` plus the first window's lead-in (built before timing).
        frames = hops * hop + size
        recording = np.ascontiguousarray(np.tile(loop, (frames // len(loop) + 1, 1))[:frames])
        vectorised(args.system, recording[:10 * hop + size], rate, size, hop)  # warm up
        for _ in range(args.repetitions):
            start = time.perf_counter()
            result = vectorised(args.system, recording, rate, size, hop)
            times.append(time.perf_counter() - start)
        check = [float(v) for v in result[9, -1]]
        name = {"numpy": "NumPy (vectorised)", "scipy": "SciPy (vectorised)"}[args.system]
    elapsed = float(np.median(times))
    print(json.dumps({
        "system": name, "channels": args.channels, "sampleRate": rate, "deviceSeconds": hops,
        "repetitions": args.repetitions, "hopNanoseconds": elapsed / hops * 1e9,
        "deviceSecondsPerSecond": hops / elapsed, "dominantFrequencies": [round(v, 3) for v in check],
    }))


if __name__ == "__main__":
    main()
