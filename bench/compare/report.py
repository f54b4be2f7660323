"""Writes BENCHMARKS.md and the device-seconds chart from the results of one `make compare` run (run.sh)."""

import argparse
import json
import pathlib
import statistics

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

WORKLOADS = [(4, 250), (8, 250), (32, 250), (64, 250), (4, 500)]
PEERS = ["c", "numpy", "scipy", "brainflow"]
PEER_NAMES = {"c": "C + FFTW", "numpy": "NumPy (vectorised)", "scipy": "SciPy (vectorised)",
              "brainflow": "BrainFlow DataFilter (Python)"}

RING_NOTE = ("Per pop Axon's consumer writes two words of its own cache block (the head, with a release store, and "
             "the popped count, with a plain store: one writer needs no atomic add) and, when its cached tail runs "
             "out, reads the producer's tail and compares the occupancy with the peak; per push the producer writes "
             "the tail and, on a ring made wakeable for the pipeline, issues one full fence to look at the "
             "consumer's sleep flag (this measurement's ring is not wakeable). boost's and moodycamel's queues keep "
             "no statistics. The difference is a few instructions per frame, within the spread between rounds on "
             "a two-vCPU machine.")

# Why Axon can be slower than a peer on a measurement, and what would close the gap; printed only for ratios < 1.
WHY_SLOWER = {
    "c": "The comparison is like for like: Axon's spectral work (signal quality off) against the C program. "
         "Axon's hop still does a little more than the C floor: it copies every sample into its per-channel "
         "history ring on ingest (the C program reads the window straight from the recording), computes band "
         "powers, relative powers and the reference-band power, accumulates the baseline (two logarithms per "
         "channel and band) and keeps the filled-sample bookkeeping for lost packets. The taper, mean and FFT are "
         "one pass and the same FFTW plan kind; FFTW_MEASURE can choose a different plan in each process (see the "
         "FFT table), which moves either side by up to a fifth between runs.",
    "numpy": "NumPy transforms every window of the recording in one call, with no per-hop overhead and pocketfft's "
             "batched loops; Axon works one hop at a time as data arrives, which a live device requires. Closing it "
             "for offline analysis: a batch path that plans FFTW once for many windows (fftw_plan_many_dft_r2c).",
    "scipy": "SciPy transforms every window of the recording in one call (see NumPy); Axon works one hop at a time "
             "as a live device requires. Closing it offline: a batched FFTW plan over many windows.",
    "brainflow": "BrainFlow is called once per window and channel from Python; if it is ever ahead, it is the "
                 "interpreter-free C++ inside DataFilter against Axon's extra per-hop work (band powers, baseline).",
    "ring-single": RING_NOTE + " The pipeline itself never moves single frames in the steady state: producers "
                   "write batches (`FrameWriter.write(frames:…)`) and the consumer pops up to a batch at once.",
    "ring-batch": RING_NOTE + " Batched, those costs are paid once per batch, so what remains is the copy and "
                  "the cross-core traffic, the same for both queues.",
}

FFT_NOTE = ("The transform is FFTW's in both programs (`fftw_execute` on an FFTW_MEASURE plan, 64-byte aligned "
            "buffers); FFTW_MEASURE times candidate codelets when planning and can pick a different plan in each "
            "process on a busy virtual machine, so a gap here is the planner's choice or load during the "
            "measurement, not Swift overhead (there is none on this path). Closing it: export FFTW wisdom once and "
            "import it in both, so both run the same plan.")


def merge(rounds):
    """One record from a system's rounds: the median of every number, and its (min, max) under "ranges"."""
    if not rounds:
        return None
    merged = dict(rounds[0])
    merged["ranges"] = {}
    for key, value in rounds[0].items():
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            values = [r[key] for r in rounds if isinstance(r.get(key), (int, float))]
            merged[key] = statistics.median(values)
            merged["ranges"][key] = (min(values), max(values))
    merged["rounds"] = len(rounds)
    return merged


def load(results, prefix, tag):
    paths = sorted(results.glob(f"{prefix}-{tag}-r*.json"))
    return merge([json.loads(path.read_text()) for path in paths])


def rings(results, tag):
    """The queues' records, merged over rounds per (queue, batch)."""
    groups = {}
    for path in sorted(results.glob(f"rings-{tag}-r*.jsonl")):
        for line in path.read_text().splitlines():
            if line.strip():
                record = json.loads(line)
                groups.setdefault((record["system"], record["batch"]), []).append(record)
    return [merge(group) for group in groups.values()]


def overlap(a, b, scale, decimals):
    """The two (min, max) ranges as text when they overlap (the rounds cannot tell the systems apart), else None."""
    if a[0] <= b[1] and b[0] <= a[1] and a != b:
        return tuple(f"{x / scale:,.{decimals}f}–{y / scale:,.{decimals}f}" for x, y in (a, b))
    return None


def spread(record, key, scale=1.0, decimals=0):
    low, high = record["ranges"][key]
    if record["rounds"] < 2:
        return ""
    return f" ({low / scale:,.{decimals}f}–{high / scale:,.{decimals}f})"


def fmt(value, decimals=0):
    if value is None:
        return "–"
    return f"{value:,.{decimals}f}"


def ratio(axon, peer):
    return f"{axon / peer:.2f}×" if axon and peer else "–"


def PIPELINE_MISSES(axon, data):
    """Why each pipeline target the run missed was missed, in words that match the code."""
    texts = []
    for tag, label, target in [("4ch-250hz", "4 ch 250 Hz", 0.8), ("4ch-500hz", "4 ch 500 Hz", 0.8),
                               ("64ch-250hz", "64 ch 250 Hz", 0.7)]:
        a = data[tag]["axon"]
        if a and a["ringEngineOverEngine"] < target:
            per_second = 1e9 / a["deviceSecondsPerSecond"] - a["hopNanoseconds"]
            frames = a["sampleRate"]
            moving = 1e9 / a["ringItemsPerSecond"]  # ns per frame through the batched ring alone, both cores busy
            ceiling = a["hopNanoseconds"] / (a["hopNanoseconds"] + frames * moving)
            texts.append(
                f"**ring + engine ÷ engine, {label}: {a['ringEngineOverEngine']:.2f}** (target {target}). Besides the "
                f"engine the consumer does {per_second / 1000:.2f} µs of per-frame work per device-second "
                f"({per_second / frames:.1f} ns a frame). The stages read the frames in place in the ring (no copy "
                "into a block), so what is left is: bringing each frame's "
                f"{8 * (5 + a['channels'])} bytes over from the producer's core — the batched ring alone moves frames "
                f"between the two cores at {a['ringItemsPerSecond'] / 1e6:.0f} M frames/s, {moving:.1f} ns a frame, "
                f"which by itself would hold this ratio to {ceiling:.2f} with nothing else to do —, the timeline's "
                "checks of each frame's sequence number, counter or device time and its timestamp, and the engine's "
                "copy of the values into its per-channel history. The engine's own work per frame is small at 4 "
                "channels; at 64 channels the same per-frame costs are under a tenth of it (see the scaling table). "
                "Fewer bytes per frame do not remove it: `axon bench --channels 1` (48-byte frames) measures as much or more "
                "per-frame work besides the engine as 4 channels do.")
    if axon["latencyP99Microseconds"] > 50 or axon["latencyMaxMicroseconds"] > 1000:
        pinned = axon.get("pinnedLatencyP99Microseconds")
        texts.append(
            f"**Latency with the session default: p99 {axon['latencyP99Microseconds']:.0f} µs, max "
            f"{axon['latencyMaxMicroseconds']:.0f} µs** (targets 50 and 1000). The consumer sleeps on an eventfd and the "
            "producer writes it only then; the median "
            f"({axon['latencyP50Microseconds']:.0f} µs) is almost all the wake-up of a thread on another, idle vCPU: the "
            "hypervisor has to run a halted virtual CPU again. "
            + (f"With producer and consumer pinned to one CPU the same path gives p99 {pinned:.0f} µs "
               "(`RealTimeOptions.cpus`; off by default, because a consumer that shares a busy producer's core "
               "waits for it). " if pinned is not None else "")
            + "The maximum is a scheduling delay on a shared two-vCPU machine.")
    if axon["pollingLatencyP99Microseconds"] > 10:
        texts.append(
            f"**Latency with a polling consumer: p99 {axon['pollingLatencyP99Microseconds']:.1f} µs** (target 10). The "
            f"path includes the engine's analysis of the window that the sample completes ({axon['hopNanoseconds'] / 1000:.1f} "
            f"µs for a whole hop at 4 channels, signal quality included) and two cross-core hand-offs; the median is "
            f"{axon['pollingLatencyP50Microseconds']:.1f} µs. The consumer busy-waits without a system call, so the "
            "tail is what interrupts and the hypervisor take from the two vCPUs; it moves by 3× between runs.")
    return texts


def ratios_section(w, data, head):
    """The ratios the pipeline is held to, each from this run, with its target."""
    def axon(tag):
        return data[tag]["axon"]

    def ring(tag, system, batch):
        return next((r for r in data[tag]["rings"] if r["system"].startswith(system) and r["batch"] == batch), None)

    rows = []
    for tag, label, target in [("4ch-250hz", "4 ch 250 Hz", 0.8), ("4ch-500hz", "4 ch 500 Hz", 0.8),
                               ("64ch-250hz", "64 ch 250 Hz", 0.7)]:
        if axon(tag):
            rows.append((f"ring + engine ÷ engine, {label}", axon(tag)["ringEngineOverEngine"], f"≥ {target:.2f}",
                         axon(tag)["ringEngineOverEngine"] >= target))
    for tag, label in [("4ch-250hz", "4 ch"), ("8ch-250hz", "8 ch"), ("32ch-250hz", "32 ch"), ("64ch-250hz", "64 ch")]:
        a, c = axon(tag), data[tag]["c"]
        if a and c:
            value = 1e9 / a["spectralHopNanoseconds"] / c["deviceSecondsPerSecond"]
            rows.append((f"engine (spectral work) ÷ C + FFTW, {label}", value, "≥ 1.00", value >= 1))
            full = a["engineDeviceSecondsPerSecond"] / c["deviceSecondsPerSecond"]
            rows.append((f"engine (with signal quality) ÷ C + FFTW, {label}", full, "–", None))
    for tag, label in [("4ch-250hz", "4 ch"), ("64ch-250hz", "64 ch")]:
        p, a = data[tag]["axon-python"], axon(tag)
        if p and a:
            value = p["deviceSecondsPerSecond"] / a["engineDeviceSecondsPerSecond"]
            rows.append((f"engine from Python ÷ engine alone, {label}", value, "≥ 0.80", value >= 0.8))
        for peer, name, target in [("brainflow", "BrainFlow DataFilter", 30), ("scipy", "SciPy vectorised", 4),
                                   ("numpy", "NumPy vectorised", None)]:
            q = data[tag][peer]
            if p and q:
                value = p["deviceSecondsPerSecond"] / q["deviceSecondsPerSecond"]
                rows.append((f"engine from Python ÷ {name}, {label}", value,
                             f"≥ {target:.2f}" if target else "–", value >= target if target else None))
    a = axon("4ch-250hz")
    for system, batch, label in [("boost", 1, "ring ÷ boost, one frame"), ("moodycamel", 1, "ring ÷ moodycamel, one frame"),
                                 ("boost", 256, "ring ÷ boost, 256 frames")]:
        r = ring("4ch-250hz", system, batch)
        if a and r:
            mine = a["ringSingleItemsPerSecond"] if batch == 1 else a["ringItemsPerSecond"]
            value = mine / r["itemsPerSecond"]
            rows.append((label, value, "≥ 1.00", value >= 1))
    if a:
        rows.append(("latency p99, session default (µs)", a["latencyP99Microseconds"], "≤ 50",
                     a["latencyP99Microseconds"] <= 50))
        rows.append(("latency max, session default (µs)", a["latencyMaxMicroseconds"], "≤ 1000",
                     a["latencyMaxMicroseconds"] <= 1000))
        rows.append(("latency p99, polling consumer (µs)", a["pollingLatencyP99Microseconds"], "≤ 10",
                     a["pollingLatencyP99Microseconds"] <= 10))
        rows.append(("consumer CPU, 1 device in real time (% of a core)", a["consumerCPUPercent"], "≤ 2",
                     a["consumerCPUPercent"] <= 2))
    w("## The pipeline's ratios")
    w("")
    w("Each figure from this run (medians where there were rounds); the target is what Axon holds itself to.")
    w("")
    w("| ratio or figure | this run | target | met |")
    w("|---|---:|---:|:---:|")
    for label, value, target, met in rows:
        w(f"| {label} | {value:.2f} | {target} | {'–' if met is None else ('yes' if met else '**no**')} |")
    w("")


def fleet_section(results, axon, w):
    """## Fleet: one `axon fleet worker` on a 3-node JetStream cluster (fleet.sh) beside the in-process engine."""
    path = results / "fleet.json"
    if not path.exists():
        return
    fleet = json.loads(path.read_text())
    fast, paced = fleet["fast"], fleet["paced"]
    per_core = fast["devicesPerWorkerCore"]
    w("## Fleet: a worker on NATS JetStream")
    w("")
    w(f"`bench/compare/fleet.sh`: one `axon fleet worker` against {fleet['cluster']}, fed by `axon fleet simulate` "
      "(4-channel 250 Hz headsets). The simulator, the three servers and the worker share the machine's "
      f"{fleet['cores']} cores. Devices per worker core = device-seconds the worker processed ÷ its CPU-seconds "
      "(utime + stime of the process: NATS I/O, decoding, engine, result publishing with acknowledgements, "
      "checkpoints). The in-process figures are `axon bench`'s of the same run.")
    w("")
    w("| | devices per core | fleet worker ÷ this |")
    w("|---|---:|---:|")
    w(f"| fleet worker ({fast['devices']} devices × {fast['seconds']:g} s, `--fast`: "
      f"{fmt(fast['deviceSeconds'])} device-seconds in {fast['workerCPUSeconds']:.2f} CPU-s) | **{fmt(per_core)}** "
      "| 1.00× |")
    if axon:
        w(f"| in-process ring + engine (`axon bench`) | {fmt(axon['devicesPerCore'])} "
          f"| {per_core / axon['devicesPerCore']:.3f} |")
        w(f"| in-process engine alone | {fmt(axon['engineDeviceSecondsPerSecond'])} "
          f"| {per_core / axon['engineDeviceSecondsPerSecond']:.3f} |")
    w("")
    lag = paced["maxLagSeconds"]
    kept = "kept pace" if paced["simulatorKeptPace"] else "could not keep pace on this machine"
    w(f"Real time: {paced['devices']} devices × {paced['seconds']:g} s paced; the simulator took "
      f"{paced['simulatorWallSeconds']:.1f} s ({kept}); worst lag (a result stored after its raw batch) "
      f"**{fmt(lag, 2)} s**, median {fmt(paced['medianLagSeconds'], 3)} s "
      f"({'under' if paced['lagUnder2s'] else 'not under'} 2 s); {paced['devicesWithResults']} devices with results, "
      f"{paced['missing']} missing and {paced['duplicated']} duplicated results; the worker used "
      f"{paced['workerCPUSeconds']:.2f} CPU-s for {fmt(paced['deviceSeconds'])} device-seconds "
      f"({fmt(paced['devicesPerWorkerCore'])} per core at this load).")
    w("")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--results", type=pathlib.Path, required=True)
    parser.add_argument("--markdown", type=pathlib.Path, required=True)
    parser.add_argument("--chart", type=pathlib.Path, required=True)
    args = parser.parse_args()
    results = args.results

    machine = dict(line.split("=", 1) for line in (results / "machine.txt").read_text().splitlines() if "=" in line)
    data = {}
    for channels, rate in WORKLOADS:
        tag = f"{channels}ch-{rate}hz"
        data[tag] = {"axon": load(results, "axon", tag), "rings": rings(results, tag)}
        for peer in PEERS:
            data[tag][peer] = load(results, peer, tag)
        data[tag]["axon-python"] = load(results, "axon-python", tag)

    head = data["4ch-250hz"]
    axon = head["axon"]
    slower = []  # (what, peer key, the two rounds' ranges if they overlap, else None) where Axon ÷ peer < 1
    out = []
    w = out.append
    w("# Benchmarks")
    w("")
    w("Axon against C + FFTW (the floor), BrainFlow's DataFilter, NumPy and SciPy for the EEG hop, and against "
      "boost::lockfree::spsc_queue and moodycamel::ReaderWriterQueue for the ring. Every figure below was measured "
      f"in one run of `make compare` ({machine.get('date', '?')}) on the machine described here, and every ratio is "
      "computed from that run. Regenerate with `make compare` (about five minutes once axon is built; an otherwise idle machine gives "
      "steadier figures).")
    w("")
    w("Ratios are **Axon ÷ peer on a rate** (device-seconds, transforms or frames per wall-second): above 1 Axon "
      "does more work per second, below 1 the peer does.")
    w("")
    w("## Machine")
    w("")
    w("| | |")
    w("|---|---|")
    for key, label in [("cpu", "CPU"), ("cores", "cores"), ("memory", "memory"), ("kernel", "kernel"), ("os", "OS"),
                       ("swift", "Swift"), ("gcc", "C/C++ compiler (-O2)"), ("python", "Python"),
                       ("fftw", "FFTW (libfftw3-dev)"), ("boost", "Boost (libboost-dev)"),
                       ("readerwriterqueue", "moodycamel (libreaderwriterqueue-dev)"), ("brainflow", "brainflow"),
                       ("numpy", "numpy"), ("scipy", "scipy"), ("load_before", "load average before"),
                       ("load_after", "load average after")]:
        w(f"| {label} | {machine.get(key, '?')} |")
    w("")
    w("## The work")
    w("")
    w("One **hop** = one second of one device: for every channel, the last window of samples (256 at 250 Hz, 512 at "
      "500 Hz), mean removed, Hann window, real FFT, power spectrum, dominant frequency in 3–7, 7–13 and 14–24 Hz "
      "(largest bin, log-parabolic refinement). The signal is `axon bench`'s: 10.3, 5.1 and 19.7 Hz tones, noise "
      "from a fixed-seed 64-bit LCG and a 1000 µV offset, the same formula in every program. Every system reports the "
      "dominant frequencies of the last channel at the tenth hop as a check that it did the real work:")
    w("")
    if "tenthHopDominantFrequencies" in axon:
        w(f"- Axon engine: {', '.join(f'{v:.3f}' for v in axon['tenthHopDominantFrequencies'])} Hz")
    for peer in PEERS:
        if head[peer]:
            w(f"- {PEER_NAMES[peer]}: {', '.join(f'{v:.3f}' for v in head[peer]['dominantFrequencies'])} Hz")
    w("")
    w("- **Axon engine**: `axon bench`'s hop, `EEGEngine.ingest(rows:…)` on one thread, as sessions run it: besides "
      "the spectra and peaks it measures every window's signal quality (railed, flat, mains, muscle, the eyes' slow "
      "swings) and computes band powers, relative powers and the baseline every hop.")
    w("- **Axon engine, spectral work only**: the same hop with `measuresSignalQuality` off — the work the C "
      "program does, plus band powers and the baseline. Axon ÷ C + FFTW is taken on this one, like for like.")
    w("- **Axon ring + engine**: an hour of data written by one thread into the pipeline's ring and run through "
      "timeline and engine (baseline and indicators on) on the consumer thread: what one core serves.")
    w("- **C + FFTW**: `bench/compare/hop_fftw.c`, the same FFTW_MEASURE plan, window read straight from the "
      "recording.")
    w("- **NumPy / SciPy**: every hop of a recording at once on a strided view (`sliding_window_view`), "
      "`np.fft.rfft` / `scipy.fft.rfft` (one worker); the recording is held in memory (at most 16 M samples).")
    w("- **BrainFlow**: `DataFilter.detrend(CONSTANT)` and `DataFilter.get_psd(…, HANNING)` per window and channel "
      "from Python, band peaks in Python.")
    w("- **Axon engine from Python**: the same engine through the `axon_eeg` package (ctypes over the release "
      "`libAxonC.so`), configured as `axon bench`'s, fed a minute of samples per `Engine.push` and its spectra "
      "taken after each as NumPy structured arrays (docs/python.md); in the ratios below.")
    w("")

    # --- Hop -------------------------------------------------------------------------------------------------------
    w("## One hop, 4 channels at 250 Hz")
    w("")
    w(f"Median of {axon['rounds']} rounds, range over the rounds in brackets.")
    w("")
    w("| system | µs per hop | device-seconds per wall-second (one core) | Axon engine ÷ system |")
    w("|---|---:|---:|---:|")
    engine = axon["engineDeviceSecondsPerSecond"]
    w(f"| Axon engine | {axon['hopNanoseconds'] / 1000:.2f} | {fmt(engine)}"
      f"{spread(axon, 'engineDeviceSecondsPerSecond')} | 1.00× |")
    spectral = 1e9 / axon["spectralHopNanoseconds"]
    low, high = axon["ranges"]["spectralHopNanoseconds"]
    spectral_spread = f" ({fmt(1e9 / high)}–{fmt(1e9 / low)})" if axon["rounds"] > 1 else ""
    w(f"| Axon engine, spectral work only | {axon['spectralHopNanoseconds'] / 1000:.2f} | {fmt(spectral)}"
      f"{spectral_spread} | {ratio(engine, spectral)} |")
    w(f"| Axon ring + engine (1 h replay) | {axon['replayMilliseconds'] * 1000 / axon['replayDeviceSeconds']:.2f} "
      f"| {fmt(axon['deviceSecondsPerSecond'])}{spread(axon, 'deviceSecondsPerSecond')} "
      f"| {ratio(engine, axon['deviceSecondsPerSecond'])} |")
    for peer in PEERS:
        p = head[peer]
        if p:
            w(f"| {PEER_NAMES[peer]} | {p['hopNanoseconds'] / 1000:.2f} | {fmt(p['deviceSecondsPerSecond'])}"
              f"{spread(p, 'deviceSecondsPerSecond')} | {ratio(engine, p['deviceSecondsPerSecond'])} |")
            # Against C, like for like: the spectral hop (its rounds' range from the hop's nanoseconds).
            mine = spectral if peer == "c" else engine
            mine_range = (tuple(sorted(1e9 / x for x in axon["ranges"]["spectralHopNanoseconds"])) if peer == "c"
                          else axon["ranges"]["engineDeviceSecondsPerSecond"])
            if mine < p["deviceSecondsPerSecond"]:
                slower.append(("hop", peer, overlap(mine_range, p["ranges"]["deviceSecondsPerSecond"], 1, 0)))
    w("")
    w(f"Devices per core: one core serves **{fmt(axon['devicesPerCore'])}** 4-channel 250 Hz devices through ring "
      f"and engine (`deviceSecondsPerSecond`), {fmt(engine)} counting the engine alone.")
    w("")
    w("![device-seconds per wall-second](bench/compare/device-seconds.png)")
    w("")
    ratios_section(w, data, head)

    # --- FFT -------------------------------------------------------------------------------------------------------
    c = head["c"]
    w("## FFT of one 256-point window")
    w("")
    w("| system | ns per transform | Axon ÷ system |")
    w("|---|---:|---:|")
    w(f"| Axon (`RealFFT`, FFTW_MEASURE) | {axon['fftNanoseconds']:.1f}{spread(axon, 'fftNanoseconds', 1, 1)} "
      "| 1.00× |")
    if c:
        w(f"| C + FFTW (same plan flags) | {c['fftNanoseconds']:.1f}{spread(c, 'fftNanoseconds', 1, 1)} "
          f"| {ratio(c['fftNanoseconds'], axon['fftNanoseconds'])} |")
        if axon["fftNanoseconds"] > c["fftNanoseconds"]:
            slower.append(("fft", "c", overlap(axon["ranges"]["fftNanoseconds"], c["ranges"]["fftNanoseconds"], 1, 1)))
    w("")

    # --- Ring ------------------------------------------------------------------------------------------------------
    w("## Ring: 4-channel frames (72 bytes) from one thread to another")
    w("")
    w("| queue | frames per push/pop | M frames per second | Axon ÷ queue |")
    w("|---|---:|---:|---:|")
    w(f"| Axon `SPSCRing` | 1 | {axon['ringSingleItemsPerSecond'] / 1e6:.1f}"
      f"{spread(axon, 'ringSingleItemsPerSecond', 1e6, 1)} | 1.00× |")
    for r in head["rings"]:
        if r["batch"] == 1:
            w(f"| {r['system']} | 1 | {r['itemsPerSecond'] / 1e6:.1f}{spread(r, 'itemsPerSecond', 1e6, 1)} "
              f"| {ratio(axon['ringSingleItemsPerSecond'], r['itemsPerSecond'])} |")
            if axon["ringSingleItemsPerSecond"] < r["itemsPerSecond"]:
                slower.append(("ring-single", r["system"], overlap(axon["ranges"]["ringSingleItemsPerSecond"],
                                                                   r["ranges"]["itemsPerSecond"], 1e6, 1)))
    w(f"| Axon `SPSCRing` | {axon['ringBatch']} | {axon['ringItemsPerSecond'] / 1e6:.1f}"
      f"{spread(axon, 'ringItemsPerSecond', 1e6, 1)} | 1.00× |")
    for r in head["rings"]:
        if r["batch"] > 1:
            w(f"| {r['system']} | {r['batch']} | {r['itemsPerSecond'] / 1e6:.1f}{spread(r, 'itemsPerSecond', 1e6, 1)} "
              f"| {ratio(axon['ringItemsPerSecond'], r['itemsPerSecond'])} |")
            if axon["ringItemsPerSecond"] < r["itemsPerSecond"]:
                slower.append(("ring-batch", r["system"], overlap(axon["ranges"]["ringItemsPerSecond"],
                                                                  r["ranges"]["itemsPerSecond"], 1e6, 1)))
    w("")
    w("moodycamel's `ReaderWriterQueue` has no bulk operations, so it appears only one frame at a time. All queues "
      "hold 8192 frames; both sides busy-wait and yield after 4096 empty rounds; the producer runs on CPU 0 and the "
      "consumer on CPU 1 in every program (left to the scheduler, the two threads sometimes share one CPU and a run "
      "never crosses cores).")
    w("")

    # --- Latency and allocations -------------------------------------------------------------------------------------
    w("## Latency and allocations (Axon)")
    w("")
    w("Latency = a window's last sample written into the ring → its spectrum popped from the engine's spectra ring "
      "by the application thread, over one hop at a time (monotonic clock, both instants on the producer thread).")
    w("")
    w("| consumer | p50 µs | p99 µs | max µs | hops |")
    w("|---|---:|---:|---:|---:|")
    w(f"| session default (16 yields, then blocks until the producer wakes it) | {axon['latencyP50Microseconds']:.0f} "
      f"| {axon['latencyP99Microseconds']:.0f} | {axon['latencyMaxMicroseconds']:.0f} | {axon['latencyHops']:.0f} |")
    if axon.get("pinnedLatencyP99Microseconds") is not None:
        w(f"| session default, producer and consumer pinned to one CPU (no cross-core wake-up) "
          f"| {axon['pinnedLatencyP50Microseconds']:.0f} | {axon['pinnedLatencyP99Microseconds']:.0f} "
          f"| {axon['pinnedLatencyMaxMicroseconds']:.0f} | – |")
    w(f"| napping (64 yields, then 0.5 ms naps: the default before wake-ups) | – "
      f"| {axon['nappingLatencyP99Microseconds']:.0f} | {axon['nappingLatencyMaxMicroseconds']:.0f} | – |")
    w(f"| polling | {axon['pollingLatencyP50Microseconds']:.1f} | {axon['pollingLatencyP99Microseconds']:.1f} "
      f"| {axon['pollingLatencyMaxMicroseconds']:.0f} | – |")
    w("")
    w("Steady-state heap allocations (process-wide malloc count in `axon bench`; the CI gate is the benchmark "
      "suite's own malloc counter, `make bench-check`):")
    w("")
    w("| per engine hop | per spectral-only hop | per replay hop (both threads) | per ring batch of 256 "
      "| per single-frame push | per FFT |")
    w("|---:|---:|---:|---:|---:|---:|")
    w("| " + " | ".join(fmt(axon.get(k), 2) for k in ["allocationsPerHop", "allocationsPerSpectralHop",
                                                       "allocationsPerReplayHop",
                                                       "allocationsPerRingBatch", "allocationsPerRingItem",
                                                       "allocationsPerFFT"]) + " |")
    w("")

    # --- Scaling ---------------------------------------------------------------------------------------------------
    w("## Scaling with channels and rate")
    w("")
    w("Device-seconds per wall-second on one core (higher is better); µs per hop is one device-second's work.")
    w("")
    w("| device | Axon µs/hop (spectral only) | ns per channel-second | Axon engine | Axon ring + engine | C + FFTW "
      "| NumPy | SciPy | BrainFlow | spectral ÷ C | ring + engine ÷ engine | ring M frames/s (256 / 1) "
      "| latency p99 µs | allocations per hop |")
    w("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for channels, rate in WORKLOADS:
        d = data[f"{channels}ch-{rate}hz"]
        a = d["axon"]
        if not a:
            continue
        peers = {peer: (d[peer]["deviceSecondsPerSecond"] if d[peer] else None) for peer in PEERS}
        w(f"| {channels} ch, {rate} Hz | {a['hopNanoseconds'] / 1000:.2f} ({a['spectralHopNanoseconds'] / 1000:.2f}) "
          f"| {a['hopNanoseconds'] / channels:.0f} "
          f"| {fmt(a['engineDeviceSecondsPerSecond'])} | {fmt(a['deviceSecondsPerSecond'])} "
          + " ".join(f"| {fmt(peers[p])}" for p in PEERS)
          + f" | {ratio(1e9 / a['spectralHopNanoseconds'], peers['c'])} "
          f"| {a['ringEngineOverEngine']:.2f} "
          f"| {a['ringItemsPerSecond'] / 1e6:.1f} / {a['ringSingleItemsPerSecond'] / 1e6:.1f} "
          f"| {a['latencyP99Microseconds']:.0f} | {fmt(a.get('allocationsPerHop'), 2)} |")
    w("")
    w("At 500 Hz the window doubles to 512 points (about 1 Hz resolution, as at 250 Hz) and a hop is 500 samples.")
    w("")

    # --- Where Axon is slower ----------------------------------------------------------------------------------------
    w("## Where Axon is slower, and why")
    w("")
    if not slower:
        w("In this run Axon is at least as fast as every peer on every measurement above.")
    quality = axon["hopNanoseconds"] - axon["spectralHopNanoseconds"]
    c = head["c"]
    if c:
        w("")
        w(f"- **The engine as sessions run it vs C + FFTW**: {axon['engineDeviceSecondsPerSecond'] / c['deviceSecondsPerSecond']:.2f}×. "
          f"Signal quality costs {quality / 1000:.2f} µs of the {axon['hopNanoseconds'] / 1000:.2f} µs hop at 4 channels: "
          "per channel and window a pass counting railed samples, run sums for the 100 ms moving average and its "
          "detrended swing (the eyes), and four band sums of the spectrum (flat, mains, muscle). The C program judges "
          "nothing; `measuresSignalQuality = false` gives the same work, compared above.")
    missed = PIPELINE_MISSES(axon, data)
    for text in missed:
        w(f"- {text}")
    groups = {}  # (what, note key) -> [(peer, ranges)], one bullet per note
    for what, peer, ranges in slower:
        key = peer if what in ("hop", "fft") else what
        groups.setdefault((what, key), []).append((peer, ranges))
    for (what, key), members in groups.items():
        text = FFT_NOTE if what == "fft" else WHY_SLOWER.get(key, "")
        noise = [f"{PEER_NAMES.get(peer, peer)}: Axon {r[0]}, peer {r[1]}" for peer, r in members if r]
        if noise:
            text = ("The rounds overlap (" + "; ".join(noise) + "), so this run does not separate them reliably; "
                    "the medians differ as shown. " + text)
        if what == "hop":
            def rate_of(a):
                return 1e9 / a["spectralHopNanoseconds"] if key == "c" else a["engineDeviceSecondsPerSecond"]
            scaled = [f"{ch} ch {r} Hz" for ch, r in WORKLOADS[1:]
                      if data[f"{ch}ch-{r}hz"]["axon"] and data[f"{ch}ch-{r}hz"][key]
                      and rate_of(data[f"{ch}ch-{r}hz"]["axon"]) < data[f"{ch}ch-{r}hz"][key]["deviceSecondsPerSecond"]]
            if scaled:
                text += f" The same holds in the scaling table at {', '.join(scaled)}."
        label = {"hop": "hop", "fft": "FFT", "ring-single": "ring, one frame", "ring-batch": "ring, batched"}[what]
        names = " and ".join(PEER_NAMES.get(peer, peer) for peer, _ in members)
        w(f"- **{label} vs {names}**: {text}")
    w("")
    fleet_section(results, axon, w)
    args.markdown.write_text("\n".join(out) + "\n")

    # --- Chart -------------------------------------------------------------------------------------------------------
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2), gridspec_kw={"width_ratios": [1.15, 1]})
    names = ["Axon engine", "Axon ring + engine"] + [PEER_NAMES[p] for p in PEERS if head[p]]
    values = [engine, axon["deviceSecondsPerSecond"]] + [head[p]["deviceSecondsPerSecond"] for p in PEERS if head[p]]
    colors = ["#1f6f8b", "#5fa8c9"] + ["#9a9a9a"] * (len(names) - 2)
    bars = left.barh(names[::-1], values[::-1], color=colors[::-1])
    left.set_xscale("log")
    left.set_xlabel("device-seconds per wall-second, one core (log)")
    left.set_title("4-channel 250 Hz EEG hop")
    for bar, value in zip(bars, values[::-1]):
        left.text(value * 1.08, bar.get_y() + bar.get_height() / 2, f"{value:,.0f}", va="center", fontsize=8)
    left.set_xlim(min(values) / 2, max(values) * 8)
    channel_workloads = [(ch, r) for ch, r in WORKLOADS if r == 250]
    xs = [ch for ch, _ in channel_workloads]
    for label, getter, style in [
        ("Axon engine", lambda d: d["axon"]["engineDeviceSecondsPerSecond"] if d["axon"] else None, "o-"),
        ("Axon ring + engine", lambda d: d["axon"]["deviceSecondsPerSecond"] if d["axon"] else None, "o--"),
        ("C + FFTW", lambda d: d["c"]["deviceSecondsPerSecond"] if d["c"] else None, "s-"),
        ("NumPy", lambda d: d["numpy"]["deviceSecondsPerSecond"] if d["numpy"] else None, "^-"),
        ("SciPy", lambda d: d["scipy"]["deviceSecondsPerSecond"] if d["scipy"] else None, "v-"),
        ("BrainFlow", lambda d: d["brainflow"]["deviceSecondsPerSecond"] if d["brainflow"] else None, "d-"),
    ]:
        ys = [getter(data[f"{ch}ch-{r}hz"]) for ch, r in channel_workloads]
        if all(y is not None for y in ys):
            right.plot(xs, ys, style, label=label, markersize=4)
    right.set_xscale("log", base=2)
    right.set_yscale("log")
    right.set_xticks(xs, [str(x) for x in xs])
    right.set_xlabel("channels (250 Hz)")
    right.set_ylabel("device-seconds per wall-second")
    right.set_title("Scaling with channels")
    right.grid(True, which="both", alpha=0.3)
    right.legend(fontsize=7)
    fig.suptitle(f"Axon vs peers, one run on {machine.get('cpu', '?')} ({machine.get('cores', '?')} cores)",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(args.chart, dpi=90)


if __name__ == "__main__":
    main()
