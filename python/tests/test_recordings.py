"""read(), open() and the stream object over shipped recordings, checked against pyedflib (the reference EDF reader)
and `axon info`; gaps stay visible."""

import subprocess
import threading

import numpy as np
import pyedflib
import pytest

import axon_eeg as axon
from conftest import AXON, EDF, MUSE, OPENBCI


def test_version_and_library():
    assert axon.__version__ == subprocess.run([str(AXON), "--version"], capture_output=True, text=True).stdout.split()[-1]
    assert axon.library_path.endswith("libAxonC.so")


def test_read_edf_equals_pyedflib():
    data, times, info = axon.read(EDF)
    with pyedflib.EdfReader(str(EDF)) as reference:
        expected = np.vstack([reference.readSignal(c) for c in range(reference.signals_in_file)])
        labels = reference.getSignalLabels()
    assert data.shape == expected.shape == (64, 9600)
    assert data.dtype == np.float64 and data.flags["C_CONTIGUOUS"]
    np.testing.assert_allclose(data, expected, rtol=0, atol=1e-9)
    assert info.labels == labels
    assert info.sample_rate == 160 and info.frame_count == 9600 and info.duration == 60
    assert info.format == "EDF+" and info.device_kind == "recording"
    np.testing.assert_allclose(np.diff(times), 1 / 160, atol=1e-6)  # Unix seconds near 1.25e9
    assert [m.text for m in info.markers] == ["T0"]


def test_info_matches_axon_info():
    """The same facts `axon info` prints for an OpenBCI GUI file."""
    _, times, info = axon.read(OPENBCI)
    printed = subprocess.run([str(AXON), "info", str(OPENBCI)], capture_output=True, text=True, check=True).stdout
    assert f"frames      {info.frame_count} at {info.sample_rate:.3f} Hz" in printed
    assert f"(Unix {info.start_time:.3f} s)" in printed and times[0] == info.start_time
    assert info.labels == [f"EXG{n}" for n in range(8)] and set(info.units) == {"µV"}
    assert info.format == "OpenBCI GUI text (OpenBCI Raw EXG Data)" and info.has_timestamps


def test_stream_blocks_cover_the_file_and_stop_at_gaps(gap_xdf):
    data, times, info = axon.read(gap_xdf)
    assert [(g.before_frame, g.missing) for g in info.gaps] == [(9000, 6000)]
    with axon.open(gap_xdf, block_seconds=7) as stream:
        blocks = list(stream)
    assert np.array_equal(np.hstack([b.data for b in blocks]), data)
    assert np.array_equal(np.concatenate([b.times for b in blocks]), times)
    gapped = [b for b in blocks if b.gap is not None]
    assert len(gapped) == 1 and gapped[0].first_frame == 9000 and gapped[0].gap.missing == 6000
    assert max(b.first_frame + len(b) for b in blocks if b.first_frame < 9000) == 9000  # no block spans the gap


def test_stream_read_seconds_seek_and_end():
    with axon.open(MUSE) as stream:
        rate = stream.info.sample_rate
        first = stream.read(2.0)
        assert first.data.shape == (stream.info.channel_count, round(2 * rate)) and first.first_frame == 0
        assert stream.position == len(first)
        rest = stream.read()
        assert len(first) + len(rest) == stream.info.frame_count
        assert len(stream.read(1.0)) == 0
        stream.seek(10)
        assert stream.read(0.1).first_frame == 10
        with pytest.raises(axon.AxonValueError):
            stream.read(-1)
        with pytest.raises(axon.AxonValueError):
            stream.seek(stream.info.frame_count + 1)
    assert stream.closed


def longest_pause_while(call):
    """The longest stretch, in seconds, in which a second thread made no progress while `call` ran; and how long
    `call` took.

    The thread notes the time every 1,000 counts. A call that kept the GIL would stop it for the whole call (and the
    switch interval, raised to 50 ms, keeps the edges out of doubt); with the GIL released it pauses only when the
    scheduler runs something else, for milliseconds, even on a loaded machine."""
    import sys
    import time

    stamps = []
    stop = threading.Event()

    def count():
        n = 0
        while not stop.is_set():
            n += 1
            if n % 1000 == 0:
                stamps.append(time.perf_counter())

    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.05)
    thread = threading.Thread(target=count)
    thread.start()
    try:
        time.sleep(0.05)
        start = time.perf_counter()
        call()
        end = time.perf_counter()
        time.sleep(0.05)
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(interval)
    inside = [start] + [t for t in stamps if start < t < end] + [end]
    return max(b - a for a, b in zip(inside, inside[1:])), end - start


def test_a_second_thread_runs_during_a_long_call():
    """ctypes releases the GIL inside the library: a counting thread keeps counting while the main thread reads a
    3.5 MB recording and analyses 5 minutes of EEG. (Through ctypes.PyDLL, which keeps the GIL, the same read stops
    it for the whole call.)"""
    pause, elapsed = longest_pause_while(lambda: axon.read(OPENBCI))
    assert pause < 0.5 * elapsed, (pause, elapsed)
    rng = np.random.default_rng(1)
    long = rng.normal(0, 10, (4, 250 * 300))
    pause, elapsed = longest_pause_while(lambda: axon.analyze(long, 250.0))
    assert elapsed > 0.2 and pause < 0.5 * elapsed, (pause, elapsed)
