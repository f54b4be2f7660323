"""analyze() gives `axon analyze --json`'s report value for value, on files and on arrays."""

import json
import math
import subprocess

import numpy as np
import pytest

import axon_eeg as axon
from conftest import AXON, EDF, MUSE, OPENBCI


def cli_report(path, *flags):
    run = subprocess.run([str(AXON), "analyze", str(path), "--json", *flags], capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


def differences(a, b, path=""):
    """Every place where two reports differ: keys, lengths, texts, a value against none, or numbers beyond 1e-9
    relative (1e-12 absolute near zero). Each process measures its own FFTW plan, and under load it may pick another
    algorithm, whose rounding moves a z-score near zero by about 1e-14."""
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return [f"{path}: keys {sorted(a)} ≠ {sorted(b)}"]
        return [d for key in a for d in differences(a[key], b[key], f"{path}/{key}")]
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} ≠ {len(b)} entries"]
        return [d for index, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{path}[{index}]")]
    if isinstance(a, float) or isinstance(b, float):
        if isinstance(a, (int, float)) and isinstance(b, (int, float)) and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12):
            return []
    return [] if a == b else [f"{path}: {a!r} ≠ {b!r}"]


@pytest.mark.parametrize("path", [EDF, OPENBCI, MUSE], ids=["edf", "openbci", "muse"])
def test_report_equals_the_command(path):
    report = axon.analyze(path)
    assert differences(report, cli_report(path)) == []
    assert report["channels"][0]["bands"][1]["low"] == 7


def test_options_are_the_command_flags():
    python = axon.analyze(
        OPENBCI, channels=["EXG6", "EXG7"], window=512, hop=125, baseline=20, indicator=5, tmin=10, tmax=70,
        blink_scale=0, keep_artifacts=True, bands="alpha=8-13,beta=13-30", rail=187500,
    )
    command = cli_report(
        OPENBCI, "--channels", "EXG6,EXG7", "--window", "512", "--hop", "125", "--baseline", "20", "--indicator", "5",
        "--from", "10", "--to", "70", "--blink-scale", "0", "--keep-artifacts", "--bands", "alpha=8-13,beta=13-30",
        "--rail", "187500",
    )
    assert differences(python, command) == []
    assert [c["label"] for c in python["channels"]] == ["EXG6", "EXG7"] and python["window"] == 512


def test_an_array_gives_the_report_of_its_file():
    data, times, info = axon.read(EDF)
    from_array = axon.analyze(data, info.sample_rate, labels=info.labels, start_time=info.start_time, rail=3276.7)
    from_file = axon.analyze(EDF, rail=3276.7)
    assert differences(from_array["channels"], from_file["channels"]) == []
    assert differences(from_array["bandPowers"], from_file["bandPowers"]) == []
    assert differences(from_array["zones"], from_file["zones"]) == []


def test_no_peak_is_none_in_the_report_and_nan_in_the_engine():
    """A pure 10 Hz sine: theta (3–7 Hz) holds no peak of its own."""
    rate = 250.0
    t = np.arange(int(rate * 30)) / rate
    sine = np.vstack([20 * np.sin(2 * np.pi * 10 * t)] * 4)
    report = axon.analyze(sine, rate, baseline=0)
    theta, alpha = report["channels"][0]["bands"][:2]
    assert theta["median"] is None and theta["noPeakFrames"] == report["frames"]
    assert abs(alpha["median"] - 10) < 0.1
