"""The EEG engine: push blocks of samples, take spectra rows, indicators and signal quality as NumPy structured arrays.

The same engine `axon analyze` runs: every ``hop`` samples it analyses the last ``window`` samples of each channel
(Hann window, FFTW) into the dominant frequency per band (NaN when the band holds no peak of its own), band powers and
the window's signal quality; after ``baseline`` seconds it makes an activity-zone indicator every ``indicator``
seconds.
"""

from __future__ import annotations

from ctypes import byref, c_size_t, c_void_p
from typing import Optional, Sequence, Tuple

import numpy as np

from . import _library as C
from .errors import AxonValueError
from .recording import Block, as_rows

__all__ = ["Engine", "ZONES"]

#: Zone names by number (axon.h's AXON_ZONE_*); -1 is a channel left out.
ZONES = {code: C.lib.axon_zone_name(code).decode() for code in range(-1, 6)}

_ROW = np.dtype(C.SpectrumRow)
_ROW_BYTES = np.dtype((np.void, _ROW.itemsize))
_INDICATOR = np.dtype(C.Indicator)
_ZONE = np.dtype(C.ChannelZone)


class Engine(C.OwnedHandle):
    """An EEG engine for ``channels`` channels at ``sample_rate`` Hz (defaults: the Brainiac headset's 4 at 250).

    ``labels`` name the channels (10-20 names decide which are watched for blinks). ``window`` and ``hop`` are in
    samples (hop default: one second's); ``bands`` a list of (low, high) Hz pairs, at most 8 (default 3–7, 7–13,
    14–24); ``baseline`` and ``indicator`` seconds (baseline 0: no zones); ``rail`` the amplifier's rail in µV;
    ``blink_scale`` and ``exclude_artifacts`` as `axon analyze`'s --blink-scale and --keep-artifacts; ``start_time``
    the Unix time of the first sample for blocks pushed without times.

    Threading: one thread at a time. Every call returns at once (no call waits for a device); results wait in the
    engine until taken.
    """

    _closer = "axon_engine_destroy"
    _what = "engine"

    def __init__(
        self,
        sample_rate: float = 250.0,
        channels: Optional[int] = None,
        labels: Optional[Sequence[str]] = None,
        window: int = 256,
        hop: Optional[int] = None,
        bands: Optional[Sequence[Tuple[float, float]]] = None,
        baseline: float = 60.0,
        indicator: float = 10.0,
        rail: Optional[float] = None,
        blink_scale: float = 2.5,
        exclude_artifacts: bool = True,
        start_time: float = 0.0,
        band_roles: Tuple[int, int, int] = (0, 1, 2),
    ) -> None:
        config = C.EngineConfig()
        C.check(C.lib.axon_engine_config_default(byref(config)))
        if labels is not None:
            labels = [str(label) for label in labels]
            if channels is not None and channels != len(labels):
                raise AxonValueError(f"{len(labels)} labels for {channels} channels")
            channels = len(labels)
        channels = 4 if channels is None else int(channels)
        config.sample_rate = float(sample_rate)
        config.channel_count = channels
        self._labels_array = C.labels_array(labels) if labels is not None else None
        config.channel_labels = self._labels_array
        config.window_size = int(window)
        config.hop = int(hop) if hop is not None else int(round(sample_rate))
        config.baseline_seconds = float(baseline)
        config.indicator_seconds = float(indicator)
        config.rail_magnitude = float(rail) if rail is not None else 0.0
        config.blink_scale = float(blink_scale)
        config.exclude_artifacts = 1 if exclude_artifacts else 0
        if bands is not None:
            bands = [(float(low), float(high)) for low, high in bands]
            if not 1 <= len(bands) <= C.MAX_BANDS:
                raise AxonValueError(f"bands: give 1 to {C.MAX_BANDS} (low, high) pairs, not {len(bands)}")
            config.band_count = len(bands)
            for index, (low, high) in enumerate(bands):
                config.bands[index].low_hz, config.bands[index].high_hz = low, high
        config.theta_band, config.alpha_band, config.beta_band = (int(role) for role in band_roles)
        config.start_time = float(start_time)
        handle = c_void_p()
        C.check(C.lib.axon_engine_create(byref(config), byref(handle)))
        self._handle = handle
        self.channels = channels
        self.labels = labels if labels is not None else [f"ch{n}" for n in range(1, channels + 1)]
        self.sample_rate = float(sample_rate)
        self.bands = [(config.bands[i].low_hz, config.bands[i].high_hz) for i in range(config.band_count)]
        self._label_array = np.asarray(self.labels)
        self._spectra_dtype = _spectra_layout(len(self.bands), self.labels)
        self._rows: list = []
        self._last_quality: Optional[np.ndarray] = None

    # Lifetime: close(), closed and `with` come from OwnedHandle; closing drops the results not yet taken.

    # Feeding ----------------------------------------------------------------------------------------------------
    def push(self, block, times=None) -> None:
        """Feeds a (channels × n) float block in µV; ``times`` (n seconds, optional) are carried into the results.
        A float64 block whose rows are contiguous (``data[:, a:b]`` of a C-ordered array) is read in place, without
        a copy. A block of the wrong shape or dtype, or holding NaN or infinity, raises ``AxonValueError`` and
        changes nothing."""
        handle = self._live("push")
        if isinstance(block, Block):
            block, times = block.data, block.times if times is None else times
        samples, stride = as_rows(block, "block", self.channels)
        count = samples.shape[1]
        stamps = None
        if times is not None:
            stamps = np.ascontiguousarray(times, dtype=np.float64)
            if stamps.shape != (count,):
                raise AxonValueError(f"times has shape {stamps.shape}; the block has {count} frames")
        C.check(
            C.lib.axon_engine_push_strided(
                handle, samples.ctypes.data, stride, None if stamps is None else stamps.ctypes.data, self.channels,
                count,
            )
        )

    def skip(self, missing: int) -> None:
        """Says ``missing`` samples per channel were lost before the next block (a gap): up to 12 are bridged, a
        longer loss restarts the window history."""
        C.check(C.lib.axon_engine_skip(self._live("skip"), int(missing)))

    # Results ----------------------------------------------------------------------------------------------------
    def spectra(self, frame: bool = False):
        """The spectrum rows made since the last call, one per channel per window, oldest first, as a structured
        array (fields ``window``, ``sample_index``, ``time``, ``channel``, ``label``, ``dominant_hz``,
        ``peak_power``, ``band_power``, ``relative_power`` (one value per band; NaN for no peak), ``reference_power``,
        ``filled_samples``, ``artifacts``, ``excluded``, ``baseline_state`` and the quality fields). ``frame=True``
        gives a pandas DataFrame with a column per band value instead."""
        self._drain()
        rows, self._rows = self._rows, []
        raw = rows[0] if len(rows) == 1 else np.concatenate(rows) if rows else np.empty(0, dtype=_ROW_BYTES)
        result = self._spectra_array(raw)
        return _frame(result) if frame else result

    def quality(self, frame: bool = False):
        """Each channel's signal quality in the latest window (one row per channel; empty before the first
        window): ``railed_fraction``, ``power``, ``line_share``, ``muscle_share``, ``slow_swing``, ``usable``, and
        the window's ``window`` and ``time``. Does not take the spectra: ``spectra()`` still returns them."""
        self._drain()
        latest = self._last_quality
        if latest is None:
            latest = np.empty(0, dtype=_ROW_BYTES)
        full = self._spectra_array(latest)
        names = ["window", "time", "channel", "label", "railed_fraction", "power", "line_share", "muscle_share",
                 "slow_swing", "usable"]
        result = np.empty(len(full), dtype=[(name, full.dtype[name]) for name in names])
        for name in names:
            result[name] = full[name]
        return _frame(result) if frame else result

    def indicators(self, frame: bool = False):
        """The indicators made since the last call, oldest first: ``index``, ``sample_index``, ``time``, ``zone``
        (number) and ``zone_name``, ``percent``, ``frames``, ``excluded_frames``, ``z_scores`` (per band), and per
        channel ``channel_zones`` (numbers, -1 left out) and ``channel_percent`` (NaN when left out)."""
        handle = self._live("indicators")
        pending = c_size_t(0)
        C.check(C.lib.axon_engine_pending(handle, None, byref(pending)))
        count = pending.value
        indicators = (C.Indicator * max(1, count))()
        zones = (C.ChannelZone * max(1, count * self.channels))()
        taken = c_size_t(0)
        C.check(
            C.lib.axon_engine_take_indicators(
                handle, indicators, count, zones, count * self.channels, byref(taken)
            )
        )
        raw = np.frombuffer(indicators, dtype=_INDICATOR, count=taken.value)
        raw_zones = np.frombuffer(zones, dtype=_ZONE, count=taken.value * self.channels).reshape(
            taken.value, self.channels
        )
        bands = len(self.bands)
        result = np.empty(
            taken.value,
            dtype=[
                ("index", "i8"), ("sample_index", "i8"), ("time", "f8"), ("zone", "i4"), ("zone_name", "U16"),
                ("percent", "f8"), ("frames", "i4"), ("excluded_frames", "i4"), ("z_scores", "f8", (bands,)),
                ("channel_zones", "i4", (self.channels,)), ("channel_percent", "f8", (self.channels,)),
            ],
        )
        for name in ("index", "sample_index", "time", "zone", "percent", "frames", "excluded_frames"):
            result[name] = raw[name]
        result["zone_name"] = [ZONES.get(int(zone), "unknown") for zone in raw["zone"]]
        result["z_scores"] = raw["z_scores"][:, :bands]
        result["channel_zones"] = raw_zones["zone"]
        result["channel_percent"] = raw_zones["percent"]
        return _frame(result) if frame else result

    # Internals --------------------------------------------------------------------------------------------------
    def _drain(self) -> None:
        """Moves the rows waiting in the library into this object (one copy, no per-row Python work). They are held
        as raw bytes (``_ROW_BYTES``): NumPy creates and slices a plain byte record several times faster than the
        ctypes layout, whose fields only ``_spectra_array`` reads."""
        handle = self._live("spectra")
        pending = c_size_t(0)
        C.check(C.lib.axon_engine_pending(handle, byref(pending), None))
        if pending.value == 0:
            return
        rows = np.empty(pending.value, dtype=_ROW_BYTES)
        taken = c_size_t(0)
        C.check(
            C.lib.axon_engine_take_spectra(
                handle, rows.ctypes.data, pending.value, byref(taken)
            )
        )
        rows = rows[: taken.value]
        self._rows.append(rows)
        if len(rows) >= self.channels:
            self._last_quality = rows[-self.channels:]  # a view: these bytes are never handed out or changed

    def _spectra_array(self, raw: np.ndarray) -> np.ndarray:
        """The rows as ``spectra()`` returns them: the library's rows copied whole, as bytes, into records that
        name their fields in place (``_spectra_layout``), then each row's label by its channel number. Two NumPy
        calls whatever the row count; a field-by-field copy cost five times as much."""
        count = len(raw)
        result = np.empty(count, dtype=self._spectra_dtype)
        record = result.view(np.uint8).reshape(count, self._spectra_dtype.itemsize)
        record[:, : _ROW.itemsize] = raw.view(np.uint8).reshape(count, _ROW.itemsize)
        result["label"] = self._label_array[result["channel"]]
        return result


def _spectra_layout(bands: int, labels: Sequence[str]) -> np.dtype:
    """The records ``spectra()`` returns: the library's row (``C.SpectrumRow``) with a label after it, its fields
    named where the row holds them. The per-band fields are the first ``bands`` of the row's MAX_BANDS values, the
    quality fields those of its nested struct, ``channel`` (a size_t) reads as int64, and the two flags
    (``excluded``, ``usable``: C ints the library sets to 0 or 1) as bools on their low byte (x86-64 and AArch64
    are little-endian). The bytes the names skip (``band_count``, unused band slots) stay in the record unnamed."""
    quality_kind, quality_offset = _ROW.fields["quality"][:2]

    def place(name):
        if name in _ROW.fields:
            return _ROW.fields[name][:2]
        kind, offset = quality_kind.fields[name][:2]
        return kind, quality_offset + offset

    width = max((len(label) for label in labels), default=1)
    names, formats, offsets = [], [], []
    for name in ("window", "sample_index", "time", "channel", "label", "dominant_hz", "peak_power", "band_power",
                 "relative_power", "reference_power", "filled_samples", "artifacts", "excluded", "baseline_state",
                 "railed_fraction", "power", "line_share", "muscle_share", "slow_swing", "usable"):
        if name == "label":
            kind, offset = np.dtype(f"U{width}"), _ROW.itemsize
        else:
            kind, offset = place(name)
            if kind.subdtype is not None:
                kind = np.dtype((kind.subdtype[0], (bands,)))
            elif name == "channel":
                kind = np.dtype("<i8")
            elif name in ("excluded", "usable"):
                kind = np.dtype("?")
        names.append(name)
        formats.append(kind)
        offsets.append(offset)
    itemsize = _ROW.itemsize + np.dtype(f"U{width}").itemsize
    return np.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": itemsize})


def _frame(array: np.ndarray):
    """A structured array as a pandas DataFrame: a per-band or per-channel field becomes one column per entry."""
    try:
        import pandas
    except ImportError as error:  # pandas is optional
        raise ImportError("frame=True needs pandas (pip install pandas)") from error
    columns = {}
    for name in array.dtype.names:
        values = array[name]
        if values.ndim == 1:
            columns[name] = values
        else:
            for index in range(values.shape[1]):
                columns[f"{name}_{index}"] = values[:, index]
    return pandas.DataFrame(columns)
