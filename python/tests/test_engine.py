"""Engine: push blocks, take spectra, indicators and quality; the same numbers as the offline report."""

import numpy as np
import pytest

import axon_eeg as axon
from conftest import OPENBCI

RATE = 250.0


def sine(hz, seconds, channels=4, amplitude=20.0, noise=1.0, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(int(RATE * seconds)) / RATE
    return amplitude * np.sin(2 * np.pi * hz * t) + rng.normal(0, noise, (channels, t.size))


def test_spectra_find_the_alpha_peak_and_nan_for_no_peak():
    with axon.Engine(RATE, labels=["T3", "O1", "T4", "O2"], baseline=0) as engine:
        data = sine(10.0, 20)
        for start in range(0, data.shape[1], 125):  # half-second blocks, as a device delivers
            engine.push(data[:, start:start + 125])
        spectra = engine.spectra()
    assert spectra.shape[0] == 4 * ((data.shape[1] - 256) // 250 + 1)
    assert list(spectra["label"][:4]) == ["T3", "O1", "T4", "O2"]
    assert np.all(np.abs(spectra["dominant_hz"][:, 1] - 10) < 0.1)
    assert np.isnan(spectra["dominant_hz"][:, 0]).mean() > 0.5  # theta: mostly no peak of its own
    assert spectra["dominant_hz"].shape[1] == 3 and np.all(spectra["usable"])
    assert np.all(spectra["relative_power"][:, 1] > 0.9)


def test_engine_blocks_give_the_reports_medians():
    data, times, info = axon.read(OPENBCI)
    report = axon.analyze(OPENBCI)
    with axon.Engine(info.sample_rate, labels=info.labels, start_time=info.start_time) as engine:
        with axon.open(OPENBCI, block_seconds=0.5) as stream:
            for block in stream:
                engine.push(block)
        spectra = engine.spectra()
        indicators = engine.indicators()
    for channel, summary in enumerate(report["channels"]):
        rows = spectra[spectra["channel"] == channel]
        for band, expected in enumerate(summary["bands"]):
            found = rows["dominant_hz"][:, band]
            found = found[~np.isnan(found)]
            assert (np.median(found) if found.size else None) == pytest.approx(expected["median"], rel=1e-9)
    assert len(indicators) == len(report["zones"])
    assert list(indicators["zone_name"]) == [zone["zone"] for zone in report["zones"]]
    np.testing.assert_allclose(indicators["percent"], [zone["percent"] for zone in report["zones"]])
    assert indicators["channel_zones"].shape == (len(indicators), 8)


def test_quality_is_the_latest_window_and_leaves_the_spectra():
    with axon.Engine(RATE, baseline=0) as engine:
        assert len(engine.quality()) == 0
        flat = np.zeros((4, 500))
        flat[0] = sine(10, 2, channels=1)[0]
        engine.push(flat)
        quality = engine.quality()
        assert list(quality["channel"]) == [0, 1, 2, 3]
        assert quality["usable"][0] and not quality["usable"][1:].any()  # flat channels are not usable
        assert len(engine.spectra()) == 4  # one window (samples 0…255); quality() did not take it


def test_push_with_times_and_skip():
    with axon.Engine(RATE, baseline=0) as engine:
        data = sine(10, 4)
        times = 1_700_000_000 + np.arange(data.shape[1]) / RATE
        engine.push(data[:, :500], times[:500])
        engine.skip(5)  # five samples lost: bridged
        engine.push(data[:, 505:], times[505:])
        spectra = engine.spectra()
    assert spectra["time"][0] == times[255]
    assert spectra["filled_samples"].max() == 5
    assert list(spectra["sample_index"][::4]) == [255, 505, 755]  # the lost samples keep their indices


def test_indicators_after_the_baseline():
    with axon.Engine(RATE, baseline=10, indicator=5) as engine:
        engine.push(sine(10, 9, seed=1))
        assert len(engine.indicators()) == 0  # still collecting the baseline
        engine.push(sine(6, 13, seed=2))  # theta takes over after the baseline
        indicators = engine.indicators()
        assert len(engine.indicators()) == 0  # taken
    assert len(indicators) >= 2 and list(indicators["index"]) == list(range(len(indicators)))
    assert set(indicators["zone_name"]) <= set(axon.ZONES.values())
    assert indicators["z_scores"].shape == (len(indicators), 3)
    assert indicators["z_scores"][-1, 0] > 0  # theta's share above its baseline


def test_custom_bands_and_pandas_frames():
    pandas = pytest.importorskip("pandas")
    with axon.Engine(RATE, channels=2, bands=[(4, 8), (8, 12), (18, 22)], baseline=0) as engine:
        engine.push(sine(20, 3, channels=2))
        frame = engine.spectra(frame=True)
        quality = engine.quality(frame=True)
    assert isinstance(frame, pandas.DataFrame) and "dominant_hz_2" in frame.columns and "dominant_hz_3" not in frame
    assert (frame["dominant_hz_2"] - 20).abs().max() < 0.1
    assert list(quality["channel"]) == [0, 1]


def test_a_slice_of_a_longer_array_is_read_in_place_with_the_same_results():
    data = sine(10, 12, seed=3)
    results = []
    for layout in ("slices", "copies", "fortran"):
        with axon.Engine(RATE, baseline=5, indicator=2) as engine:
            source = np.asfortranarray(data) if layout == "fortran" else data
            for start in range(0, data.shape[1], 700):
                block = source[:, start:start + 700]
                if layout == "copies":
                    block = block.copy()
                engine.push(block)
            results.append((engine.spectra(), engine.indicators()))
    (spectra, indicators), *others = results
    assert len(spectra) == 4 * ((data.shape[1] - 256) // 250 + 1) and len(indicators) > 0
    for other_spectra, other_indicators in others:
        assert spectra.tobytes() == other_spectra.tobytes()
        assert indicators.tobytes() == other_indicators.tobytes()
    assert spectra["excluded"].dtype == np.bool_ and spectra["channel"].dtype == np.int64


def test_a_bad_value_in_a_slice_names_its_place_in_the_block():
    data = sine(10, 8)
    data[2, 1003] = np.nan
    with axon.Engine(RATE, baseline=0) as engine:
        with pytest.raises(axon.AxonValueError, match="sample 3 of channel 2 is nan"):
            engine.push(data[:, 1000:1100])
        engine.push(data[:, :1000])  # the refused push changed nothing
        assert len(engine.spectra()) == 4 * ((1000 - 256) // 250 + 1)
