"""Live sources from Python: a simulated Cyton on a pty (`axon simulate-cyton`, the board's exact bytes) and a pylsl
outlet on loopback give back the samples they sent; simulators run and end; a missing device is an error."""

import os
import re
import subprocess
import threading
import time

import numpy as np
import pytest

import axon_eeg as axon
from conftest import AXON, OPENBCI, ROOT

# The Cyton's least significant bit at gain 24: 4.5 V / 24 / (2²³ − 1), in µV.
CYTON_LSB = 4.5 / 24 / (2**23 - 1) * 1e6


@pytest.fixture
def cyton_pty():
    """`axon simulate-cyton` streaming the OpenBCI GUI's recording at 4× on a fresh pty; its path."""
    process = subprocess.Popen(
        [str(AXON), "simulate-cyton", str(OPENBCI), "--speed", "4"], stdout=subprocess.PIPE, text=True
    )
    try:
        line = process.stdout.readline()
        match = re.search(r"simulated Cyton on (\S+):", line)
        assert match, line
        yield match.group(1)
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_a_simulated_cyton_gives_the_samples_it_sent(cyton_pty):
    recording, _, info = axon.read(OPENBCI)
    with axon.open(f"cyton:{cyton_pty}", block_seconds=0.5) as board:
        assert board.info.device_kind == "cyton" and board.info.labels == [f"EXG{n}" for n in range(8)]
        assert board.info.sample_rate == 250 and board.info.units == ["µV"] * 8
        blocks = [board.read() for _ in range(6)]  # 3 s of the board's samples (0.75 s at 4×)
    data = np.hstack([b.data for b in blocks])
    counters = np.concatenate([b.counters for b in blocks])
    times = np.concatenate([b.times for b in blocks])
    assert data.shape == (8, 750) and all(b.gap is None for b in blocks)
    assert np.array_equal(counters, np.arange(750) % 256)  # the packets' sample numbers, none lost
    # The board sends each value as 24 bits: the recording's samples to within half a bit.
    assert np.max(np.abs(data - recording[:8, :750])) <= CYTON_LSB / 2 + 1e-9
    assert abs(times[0] - time.time()) < 30 and np.all(np.diff(times) >= 0)  # Unix seconds, in order
    assert board.closed


# liblsl kept on this machine: the project's configuration (docs/lsl.md), for pylsl and for Axon's inlet alike.
LSL_CONFIG = ROOT / "scripts" / "lsl" / "lsl_api.cfg"


def test_a_pylsl_outlet_gives_the_samples_it_sent(monkeypatch):
    config = LSL_CONFIG
    monkeypatch.setenv("LSLAPICFG", str(config))  # read by liblsl when pylsl first loads it
    pylsl = pytest.importorskip("pylsl")
    name = f"axon-python-{os.getpid()}"
    info = pylsl.StreamInfo(name, "EEG", 3, 100.0, "double64", f"{name}-id")
    channels = info.desc().append_child("channels")
    for label in ("Fz", "Cz", "Pz"):
        channel = channels.append_child("channel")
        channel.append_child_value("label", label)
        channel.append_child_value("unit", "microvolts")
    outlet = pylsl.StreamOutlet(info)
    sent = np.arange(3 * 400, dtype=np.float64).reshape(400, 3) * 0.5 - 100
    stop = threading.Event()

    def push():
        # Waits for the inlet, then pushes 4 s of samples at 100 Hz in chunks of 10.
        while not outlet.have_consumers() and not stop.is_set():
            time.sleep(0.01)
        for start in range(0, 400, 10):
            if stop.is_set():
                return
            outlet.push_chunk(sent[start:start + 10].tolist())
            time.sleep(0.1)

    pusher = threading.Thread(target=push)
    pusher.start()
    try:
        with axon.open(f"lsl:{name}", lsl_config=str(config), block_seconds=1.0) as stream:
            assert stream.info.device_kind == "lsl" and stream.info.labels == ["Fz", "Cz", "Pz"]
            assert stream.info.sample_rate == 100
            received = []
            deadline = time.monotonic() + 30
            while sum(b.data.shape[1] for b in received) < 400 and time.monotonic() < deadline:
                block = stream.read(1.0, timeout=2.0)
                assert block.gap is None
                received.append(block)
    finally:
        stop.set()
        pusher.join()
    data = np.hstack([b.data for b in received])
    assert data.shape == (3, 400)
    np.testing.assert_array_equal(data, sent.T)


def test_simulators_run_and_end():
    with axon.open("test-sequence:10.5", seconds=2) as headset:
        blocks = list(headset)
        assert headset.ended and sum(len(b) for b in blocks) == 500
        assert len(headset.read()) == 0  # after the end: empty blocks, no error
    data = np.hstack([b.data for b in blocks])
    spectrum = np.abs(np.fft.rfft(data[0] - data[0].mean()))
    assert abs(np.argmax(spectrum) * 250 / data.shape[1] - 10.5) < 0.6
    with axon.open("simulator", seconds=1, block_seconds=0.25) as simulator:
        assert simulator.info.labels == ["T3", "O1", "T4", "O2"]
        assert sum(len(b) for b in simulator) == 250


def test_a_blocking_read_lets_other_threads_run():
    """A read waiting for a device's samples holds no GIL: a second thread keeps counting."""
    from test_recordings import longest_pause_while

    with axon.open("simulator") as simulator:
        pause, elapsed = longest_pause_while(lambda: simulator.read(1.0))
    assert elapsed > 0.5 and pause < 0.5 * elapsed, (pause, elapsed)


def test_sources_that_cannot_open():
    with pytest.raises(axon.AxonDeviceError, match="/dev/nonexistent-cyton"):
        axon.open("cyton:/dev/nonexistent-cyton")
    with pytest.raises(axon.AxonValueError, match="unknown option"):
        axon.open("simulator", sped=2)
    with pytest.raises(axon.AxonValueError, match="Brainiac"):
        axon.open("ble:")
    stream = axon.open("simulator")
    stream.close()
    with pytest.raises(axon.AxonClosedError):
        stream.read()


def test_frames_not_read_in_time_come_out_as_a_gap():
    """A simulator at 200× makes 50,000 frames in a second, more than the 32,768 the buffer holds: read late, every
    frame is either delivered or counted in an overflow gap."""
    with axon.open("simulator", seconds=200, speed=200) as simulator:
        time.sleep(3)
        blocks = list(simulator)
    frames = sum(len(b) for b in blocks)
    gaps = [b.gap for b in blocks if b.gap is not None]
    assert gaps and {g.cause for g in gaps} == {"overflow"}
    assert frames + sum(g.missing for g in gaps) == 50_000
    counters = np.concatenate([b.counters for b in blocks])
    assert counters[0] == 0 and np.all(np.diff(counters) >= 1)  # in order; what is missing is in the gaps
    assert frames <= 32_768 and blocks[-1].gap is not None  # the buffer's worth, then the newest refused, counted
