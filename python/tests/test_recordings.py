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


def ticks_while(call):
    """How many times a second thread counted while `call` ran, and how many it counts alone in as long.

    The switch interval is raised to 50 ms, so a call that kept the GIL would let the counter run only at its
    edges: through ctypes.PyDLL (which keeps the GIL) a 0.3-s read lets it count a fifth of what it counts alone,
    and a longer call less. With the GIL released inside the library it counts over 0.8 of it."""
    import sys
    import time

    ticks = [0]
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks[0] += 1

    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.05)
    thread = threading.Thread(target=count)
    thread.start()
    try:
        start, before = time.perf_counter(), ticks[0]
        call()
        elapsed, during = time.perf_counter() - start, ticks[0] - before
        before = ticks[0]
        time.sleep(elapsed)  # the counter alone (the main thread sleeps without the GIL)
        alone = ticks[0] - before
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(interval)
    return during, alone, elapsed


def test_a_second_thread_runs_during_a_long_call():
    """ctypes releases the GIL inside the library: a counting thread keeps counting while the main thread reads a
    3.5 MB recording and analyses 5 minutes of EEG."""
    during, alone, elapsed = ticks_while(lambda: axon.read(OPENBCI))
    assert during > 0.5 * alone, (during, alone, elapsed)
    rng = np.random.default_rng(1)
    long = rng.normal(0, 10, (4, 250 * 300))
    during, alone, elapsed = ticks_while(lambda: axon.analyze(long, 250.0))
    assert elapsed > 0.2 and during > 0.5 * alone, (during, alone, elapsed)
