#!/usr/bin/env python3
"""Writes the small sample files of older OpenBCI and Muse file formats in datasets/ (see datasets/README.md).

Each sample is the published layout of its format, filled with values copied from the real recordings already in
datasets/ (the OpenBCI GUI v6 file and the first 14 s of the muse-lsl P300 recording), so a reader's output can be
checked against the original text. Standard library only; deterministic (running it again writes the same bytes).

    python3 scripts/make-format-samples.py
"""
import cmath
import datetime
import math
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPENBCI = os.path.join(ROOT, "datasets/openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt")
MUSE = os.path.join(ROOT, "datasets/muse-p300/data_2017-02-04-15_45_13-first14s.csv")

# The Cyton's ADS1299 at gain 24: µV per count, as the GUI computes it; the rails are the extreme 24-bit counts.
SCALE = 4.5 / 24 / (2**23 - 1) * 1e6
NEGATIVE_RAIL = -(2**23) * SCALE  # -187500.0223...
POSITIVE_RAIL = (2**23 - 1) * SCALE  # 187500.0


def openbci_rows():
    """The v6 file's data rows as lists of stripped field texts (24 fields + formatted time)."""
    rows = []
    with open(OPENBCI, newline="") as handle:
        for line in handle:
            line = line.rstrip("\r\n")
            if line.startswith("%") or line.startswith("Sample Index"):
                continue
            rows.append([field.strip() for field in line.split(",")])
    return rows


def write_openbci_2016(rows):
    """The 2016-era GUI's text: 5 '%' lines, then index, 8 EEG µV (%.2f), 3 aux (G), time of day."""
    path = os.path.join(ROOT, "datasets/openbci-cyton-eyes-closed/OpenBCI-RAW-2016-format-first20s.txt")
    with open(path, "w", newline="") as out:
        out.write("%OpenBCI Raw EEG Data\n%\n%Sample Rate = 250.0 Hz\n%First Column = SampleIndex\n")
        out.write("%Other Columns = EEG data in microvolts followed by Accel Data (in G) interleaved with Aux Data\n")
        for number, row in enumerate(rows[:5000]):
            eeg = row[1:9]
            if 1250 <= number < 2250:  # EXG5: an electrode off for 4 s (5–9 s), at the negative rail
                eeg[5] = "%.2f" % NEGATIVE_RAIL
            if 3000 <= number < 3125:  # EXG3: half a second at the positive rail (12.0–12.5 s)
                eeg[3] = "%.2f" % POSITIVE_RAIL
            out.write(", ".join([row[0]] + eeg + row[9:12] + [row[24]]) + "\n")


def write_brainflow(rows):
    """The GUI v5 BrainFlow-RAW file for a Cyton: 24 tab-separated columns per BrainFlow's board 0, '%lf'."""
    path = os.path.join(ROOT, "datasets/openbci-cyton-eyes-closed/BrainFlow-RAW-cyton-first8s.csv")
    with open(path, "w", newline="") as out:
        for number, row in enumerate(rows[:2000]):
            eeg = [float(text) for text in row[1:9]]
            if 500 <= number < 525:  # EXG1: 0.1 s at the negative rail (2.0–2.1 s)
                eeg[1] = NEGATIVE_RAIL
            values = [float(row[0])] + eeg + [float(text) for text in row[9:22]]
            values += [int(row[22]) / 1000, float(row[23])]
            out.write("\t".join("%f" % value for value in values) + "\n")


def muse_rows():
    with open(MUSE) as handle:
        lines = handle.read().splitlines()
    return [line.split(",") for line in lines[1:]]


def stamp(seconds_text):
    """Mind Monitor's TimeStamp (yyyy-MM-dd HH:mm:ss.SSS, written here in UTC) of a muse-lsl time."""
    milliseconds = round(float(seconds_text) * 1000)
    moment = datetime.datetime(1970, 1, 1) + datetime.timedelta(milliseconds=milliseconds)
    return moment.strftime("%Y-%m-%d %H:%M:%S.") + "%03d" % (milliseconds % 1000)


BANDS = [("Delta", 1, 4), ("Theta", 4, 8), ("Alpha", 7.5, 13), ("Beta", 13, 30), ("Gamma", 30, 44)]
ELECTRODES = ["TP9", "AF7", "AF8", "TP10"]


def band_powers(rows, end):
    """Absolute band powers in Bels (log10 of the Hann-windowed power in the band) over the 256 rows before end."""
    window = [0.5 - 0.5 * math.cos(2 * math.pi * n / 256) for n in range(256)]
    powers = {}
    for column, electrode in enumerate(ELECTRODES):
        samples = [float(row[1 + column]) for row in rows[end - 256:end]]
        mean = sum(samples) / 256
        spectrum = []
        for k in range(45):  # 1 Hz bins at 256 samples / 256 Hz
            total = sum((samples[n] - mean) * window[n] * cmath.exp(-2j * math.pi * k * n / 256) for n in range(256))
            spectrum.append(abs(total) ** 2 / 256)
        for name, low, high in BANDS:
            power = sum(spectrum[k] for k in range(45) if low <= k < high)
            powers[name + "_" + electrode] = "%.6f" % math.log10(power)
    return powers


def mind_monitor_header(after_raw):
    """Mind Monitor's column names; `after_raw` are the columns between RAW_TP10 and Accelerometer_X."""
    header = ["TimeStamp"] + [f"{band}_{e}" for band, _, _ in BANDS for e in ELECTRODES]
    header += [f"RAW_{e}" for e in ELECTRODES] + after_raw
    header += ["Accelerometer_X", "Accelerometer_Y", "Accelerometer_Z", "Gyro_X", "Gyro_Y", "Gyro_Z"]
    return header + ["HeadBandOn"] + [f"HSI_{e}" for e in ELECTRODES] + ["Battery", "Elements"]


def write_mind_monitor(rows):
    """Mind Monitor's export with RAW at 256 Hz (every RAW row carries the latest band powers) and Elements rows."""
    header = mind_monitor_header(["AUX_RIGHT", "Mellow", "Concentration"])
    path = os.path.join(ROOT, "datasets/muse-p300/mindMonitor-2017-format-first4s.csv")
    empty = {name: "" for name in header}
    with open(path, "w", newline="") as out:
        out.write(",".join(header) + "\n")
        out.write(",".join({**empty, "TimeStamp": stamp(rows[0][0]),
                            "Elements": "/muse/event/connected Muse-7A1B"}[name] for name in header) + "\n")
        bands = {}
        for number, row in enumerate(rows[:1024]):
            if number >= 256 and number % 256 == 0:
                bands = band_powers(rows, number)
            fields = {**empty, **bands, "TimeStamp": stamp(row[0])}
            for column, electrode in enumerate(ELECTRODES):
                fields["RAW_" + electrode] = row[1 + column]
            fields.update({"AUX_RIGHT": row[5], "Accelerometer_X": "0.0471", "Accelerometer_Y": "-0.0237",
                           "Accelerometer_Z": "0.9961", "Gyro_X": "1.1962", "Gyro_Y": "-0.6729", "Gyro_Z": "0.2991",
                           "HeadBandOn": "1", "HSI_TP9": "1", "HSI_AF7": "1", "HSI_AF8": "1", "HSI_TP10": "2",
                           "Battery": "74"})
            out.write(",".join(fields[name] for name in header) + "\n")
            marker = row[6].strip()
            if marker != "0":
                out.write(",".join({**empty, "TimeStamp": stamp(row[0]),
                                    "Elements": "/Marker/" + marker}[name] for name in header) + "\n")
            if number == 512:
                out.write(",".join({**empty, "TimeStamp": stamp(row[0]),
                                    "Elements": "/muse/elements/blink"}[name] for name in header) + "\n")


def write_mind_monitor_bands(rows):
    """A band-power-only export (RAW columns empty): one row a second, the later column list (AUX_LEFT, no Mellow)."""
    header = mind_monitor_header(["AUX_RIGHT", "AUX_LEFT"])
    path = os.path.join(ROOT, "datasets/muse-p300/mindMonitor-bands-only.csv")
    empty = {name: "" for name in header}
    with open(path, "w", newline="") as out:
        out.write(",".join(header) + "\n")
        for second in range(1, 14):
            end = second * 256
            fields = {**empty, **band_powers(rows, end), "TimeStamp": stamp(rows[end - 1][0]), "HeadBandOn": "1",
                      "HSI_TP9": "1", "HSI_AF7": "1", "HSI_AF8": "1", "HSI_TP10": "1", "Battery": "74"}
            out.write(",".join(fields[name] for name in header) + "\n")
            if second == 6:
                out.write(",".join({**empty, "TimeStamp": stamp(rows[end + 10][0]),
                                    "Elements": "/Marker/1"}[name] for name in header) + "\n")


if __name__ == "__main__":
    obci = openbci_rows()
    write_openbci_2016(obci)
    write_brainflow(obci)
    muse = muse_rows()
    write_mind_monitor(muse)
    write_mind_monitor_bands(muse)
