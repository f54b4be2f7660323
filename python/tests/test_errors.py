"""Bad input raises a Python exception carrying Axon's message, never a crash; open/close cycles leak nothing."""

import math

import numpy as np
import pytest

import axon_eeg as axon
from conftest import EDF, OPENBCI


def test_missing_file():
    with pytest.raises(FileNotFoundError) as caught:
        axon.open("/nonexistent/session.edf")
    assert isinstance(caught.value, axon.AxonError) and caught.value.status == "AXON_ERR_NOT_FOUND"
    assert "axon_recording_open" in str(caught.value) and "/nonexistent/session.edf" in str(caught.value)
    with pytest.raises(FileNotFoundError):
        axon.analyze("/nonexistent/session.edf")


def test_not_a_recording(tmp_path):
    path = tmp_path / "notes.edf"
    path.write_text("these are not samples\n")
    with pytest.raises(axon.AxonFormatError, match="axon_recording_open"):
        axon.read(path)


def test_wrong_channel_name():
    with pytest.raises(axon.AxonValueError, match="Oz"):
        axon.analyze(OPENBCI, channels=["Oz"])


def test_bad_options():
    with pytest.raises(axon.AxonValueError, match="window"):
        axon.analyze(OPENBCI, window=4)
    with pytest.raises(axon.AxonValueError, match="bands"):
        axon.analyze(OPENBCI, bands="alpha=13-8")
    with pytest.raises(axon.AxonValueError, match="segment|outside|from"):
        axon.analyze(OPENBCI, tmin=500, tmax=600)


def test_closed_stream_and_engine():
    stream = axon.open(EDF)
    stream.close()
    stream.close()  # twice is allowed
    with pytest.raises(axon.AxonClosedError):
        stream.read(1)
    engine = axon.Engine()
    engine.close()
    with pytest.raises(axon.AxonClosedError):
        engine.push(np.zeros((4, 10)))
    with pytest.raises(axon.AxonClosedError):
        engine.spectra()


def test_blocks_of_the_wrong_shape_dtype_or_values():
    with axon.Engine() as engine:
        with pytest.raises(axon.AxonValueError, match="channels"):
            engine.push(np.zeros((3, 10)))
        with pytest.raises(axon.AxonValueError, match="2-D"):
            engine.push(np.zeros(40))
        with pytest.raises(axon.AxonValueError, match="floating-point"):
            engine.push(np.zeros((4, 10), dtype=np.int32))
        with pytest.raises(axon.AxonValueError, match="floating-point"):
            engine.push([["a"] * 10] * 4)
        block = np.zeros((4, 300))
        block[2, 17] = math.nan
        with pytest.raises(axon.AxonValueError, match="sample 17 of channel 2 is nan"):
            engine.push(block)
        with pytest.raises(axon.AxonValueError, match="times"):
            engine.push(np.zeros((4, 10)), times=np.zeros(9))
        engine.push(np.zeros((4, 300), dtype=np.float32))  # float32 is widened, not refused
        assert len(engine.spectra()) == 4  # the refused pushes changed nothing
    with pytest.raises(axon.AxonValueError, match="finite"):
        axon.analyze(np.full((2, 1000), math.inf), 250.0)
    with pytest.raises(axon.AxonValueError):
        axon.Engine(sample_rate=-1)
    with pytest.raises(axon.AxonValueError, match="live source"):
        axon.read("simulator")


def rss_kib():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4


def test_ten_thousand_open_close_cycles_leave_rss_flat(tmp_path):
    path = tmp_path / "small.edf"
    axon.write(path, np.zeros((4, 250)), 250.0)
    for _ in range(500):  # warm up: the allocator's arenas, ctypes' caches
        axon.open(path).close()
    before = rss_kib()
    for _ in range(10_000):
        with axon.open(path) as stream:
            stream.read(0.5)
    after = rss_kib()
    assert abs(after - before) <= 0.05 * before, (before, after)
