"""write() makes EDF+/BDF+ files pyedflib, MNE and Axon read back; to_mne() gives MNE's RawArray."""

import math

import numpy as np
import pyedflib
import pytest

import axon_eeg as axon
from conftest import EDF

RATE = 250.0


def signal(channels=3, seconds=4, seed=3):
    rng = np.random.default_rng(seed)
    return np.round(rng.normal(0, 40, (channels, int(RATE * seconds))), 1)  # on EDF+'s 0.1 µV steps


@pytest.mark.parametrize("suffix", ["edf", "bdf"])
def test_written_files_read_back_in_pyedflib_and_axon(tmp_path, suffix):
    path = tmp_path / f"out.{suffix}"
    data = signal()
    axon.write(path, data, RATE, ["Fz", "Cz", "Pz"], start_time=1_700_000_000,
               annotations=[(1.5, math.nan, "eyes closed"), (3.0, 0.5, "blink")])
    with pyedflib.EdfReader(str(path)) as reader:
        assert reader.getSignalLabels() == ["Fz", "Cz", "Pz"]
        assert reader.getSampleFrequency(0) == RATE
        np.testing.assert_allclose(np.vstack([reader.readSignal(c) for c in range(3)]), data, atol=0.06)
        onsets, _, texts = reader.readAnnotations()
        assert [t for t in texts if t != "Recording starts"] == ["eyes closed", "blink"]
    back, times, info = axon.read(path)
    np.testing.assert_allclose(back, data, atol=0.06)
    assert info.format == suffix.upper() + "+" and info.start_time == 1_700_000_000
    assert [m.text for m in info.markers if m.text != "Recording starts"] == ["eyes closed", "blink"]


def test_write_never_overwrites_or_clips_unless_told(tmp_path):
    path = tmp_path / "kept.edf"
    path.write_bytes(b"precious")
    with pytest.raises(FileExistsError):
        axon.write(path, signal(), RATE)
    assert path.read_bytes() == b"precious"
    axon.write(path, signal(), RATE, overwrite=True)
    assert axon.read(path)[2].frame_count == 1000
    loud = signal() * 200  # beyond EDF+'s ±3276.7 µV
    with pytest.raises(axon.AxonValueError, match="physical range"):
        axon.write(tmp_path / "loud.edf", loud, RATE)
    assert not (tmp_path / "loud.edf").exists()
    axon.write(tmp_path / "wide.edf", loud, RATE, physical_range=(-60000, 60000))
    np.testing.assert_allclose(axon.read(tmp_path / "wide.edf")[0], loud, atol=1.0)
    axon.write(tmp_path / "clipped.edf", loud, RATE, allow_clipping=True)
    assert np.abs(axon.read(tmp_path / "clipped.edf")[0]).max() <= 3276.7 + 1e-9
    with pytest.raises(axon.AxonValueError, match="format"):
        axon.write(tmp_path / "x.wav", signal(), RATE)


def test_to_mne_from_a_file_and_an_array():
    mne = pytest.importorskip("mne")
    data, _, info = axon.read(EDF)
    raw = axon.to_mne(EDF)
    assert isinstance(raw, mne.io.RawArray) and raw.ch_names == info.labels
    np.testing.assert_allclose(raw.get_data(), data * 1e-6)
    assert raw.info["sfreq"] == 160 and list(raw.annotations.description) == ["T0"]
    assert raw.info["meas_date"].timestamp() == pytest.approx(info.start_time)
    from_array = axon.to_mne(signal(), RATE, ["Fz", "Cz", "Pz"])
    assert from_array.get_channel_types() == ["eeg"] * 3
