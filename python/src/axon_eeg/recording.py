"""Recordings from files: ``read(path)`` for the whole file at once, ``open(path)`` for a stream read in blocks.

Every format `axon info` reads (EDF/EDF+/BDF/BDF+, XDF, BrainVision, FIF, Axon CSV, OpenBCI GUI text, BrainFlow CSV,
muse-lsl CSV, Mind Monitor CSV). Samples are float64 in each channel's unit (µV for EEG), shaped (channels, n) as
MNE and BrainFlow shape them. Samples a file lost (an XDF stream's pause) are never filled in: a block ends where a
gap starts, and the next block says how many samples are missing before it.
"""

from __future__ import annotations

import builtins
import ctypes
import math
import os
from ctypes import byref, c_double, c_size_t, c_void_p
from dataclasses import dataclass, field
from typing import Iterator, List, Optional, Tuple

import numpy as np

from . import _library as C
from .errors import AxonValueError

__all__ = ["Gap", "Marker", "StreamInfo", "Block", "Stream", "open", "read"]


@dataclass(frozen=True)
class Gap:
    """Samples missing before frame ``before_frame``: ``missing`` per channel, which would have been at
    ``start_time`` … ``end_time`` (the recording's time; Unix seconds from a live source). From a live source,
    ``cause`` says why: ``"device counter"`` (lost on the device or the link), ``"overflow"`` (read too slowly) or
    ``"link loss"``."""

    before_frame: int
    missing: int
    start_time: float
    end_time: float
    cause: str = ""


@dataclass(frozen=True)
class Marker:
    """An event marker or annotation at ``frame`` (``time`` as the recording's times), with its value and text."""

    frame: int
    time: float
    value: float
    text: Optional[str]


@dataclass(frozen=True)
class StreamInfo:
    """What a stream holds. ``start_time`` is Unix seconds (NaN when the file has no times); ``device_kind`` is
    ``"recording"`` for a file, the SOURCE's kind (``"cyton"``, ``"lsl"``, ``"simulator"``, …) for a live stream,
    whose ``frame_count`` and ``duration`` are None."""

    channel_count: int
    labels: List[str]
    units: List[str]
    sample_rate: float
    frame_count: Optional[int]
    duration: Optional[float]
    start_time: float
    has_timestamps: bool
    format: str
    device_kind: str
    gaps: List[Gap] = field(default_factory=list)
    markers: List[Marker] = field(default_factory=list)
    warnings: List[str] = field(default_factory=list)


@dataclass(frozen=True)
class Block:
    """Consecutive frames: ``data`` (channels × n, float64), ``times`` (n seconds: Unix time when the file or the
    device has times, else from the first frame), ``first_frame`` (its index in the stream), ``gap`` (the samples
    missing just before it, or None) and, from a live source, ``counters`` (the device's, NaN without)."""

    data: np.ndarray
    times: np.ndarray
    first_frame: int
    gap: Optional[Gap] = None
    counters: Optional[np.ndarray] = None

    def __len__(self) -> int:
        return self.data.shape[1]


class Stream(C.OwnedHandle):
    """An open recording, read in blocks. A context manager; iterate it for ``Block``s of ``block_seconds``, or call
    ``read(seconds)``. Closing frees its memory; any later call raises ``AxonClosedError``.

    Threading: reads on one stream from several threads are safe (the recording is immutable), but the read position
    is shared: give each thread a stream of its own.
    """

    _closer = "axon_recording_close"
    _what = "stream"

    def __init__(self, handle: c_void_p, block_seconds: float = 1.0) -> None:
        self._handle = handle
        self._position = 0
        self.block_seconds = block_seconds
        self.info = _info(handle)
        self._gap_at = {gap.before_frame: gap for gap in self.info.gaps}
        self._gap_frames = sorted(self._gap_at)

    # Lifetime: close(), closed and `with` come from OwnedHandle.

    # Reading ----------------------------------------------------------------------------------------------------
    @property
    def position(self) -> int:
        """The next frame ``read`` returns."""
        return self._position

    def seek(self, frame: int) -> None:
        """Moves the read position to ``frame`` (0 … frame_count)."""
        if not 0 <= frame <= self.info.frame_count:
            raise AxonValueError(f"seek: frame {frame} is outside 0…{self.info.frame_count}")
        self._position = int(frame)

    def read(self, seconds: Optional[float] = None) -> Block:
        """The next ``seconds`` of frames (all that remain when None), stopping early at the end or where samples
        are missing (the next block then carries the ``gap``). An empty block at the end."""
        handle = self._live("read")
        if seconds is not None and not (seconds > 0 and math.isfinite(seconds)):
            raise AxonValueError(f"read: seconds must be finite and above 0, not {seconds}")
        start = self._position
        remaining = self.info.frame_count - start
        count = remaining if seconds is None else min(remaining, max(1, round(seconds * self.info.sample_rate)))
        next_gap = next((frame for frame in self._gap_frames if frame > start), None)
        if next_gap is not None:
            count = min(count, next_gap - start)
        data, times = _read_frames(handle, self.info.channel_count, start, count)
        self._position = start + data.shape[1]
        return Block(data, times, start, self._gap_at.get(start))

    def __iter__(self) -> Iterator[Block]:
        while True:
            block = self.read(self.block_seconds)
            if len(block) == 0:
                return
            yield block



def open(source, block_seconds: float = 1.0, **options):  # noqa: A001 - the name Python users expect
    """Opens a SOURCE as the commands take it, to read in blocks.

    - A recording's path (or ``os.PathLike``; any format Axon reads): a ``Stream`` over the whole file, read into
      memory once. Raises ``FileNotFoundError`` (``AxonFileNotFoundError``) for a missing file and
      ``AxonFormatError`` for one Axon does not read.
    - ``cyton:PATH``, ``muse:NAME``, ``ganglion:NAME``, ``polar:NAME``, ``lsl:NAME`` / ``lsl:type=T`` /
      ``lsl:source_id=ID``, ``sensor:FILE.json``, ``simulator``, ``test-sequence:HZ``: a ``LiveStream``, streaming
      from now on. ``options``: ``channels`` (a Cyton's), ``bus``, ``search_seconds``, ``lsl_config``,
      ``muse_preset``, ``seconds`` (how long a simulator runs). A device that does not answer raises
      ``AxonDeviceError``.

    The call releases the GIL while it reads a file or searches for a device."""
    if not (block_seconds > 0 and math.isfinite(block_seconds)):
        raise AxonValueError(f"open: block_seconds must be finite and above 0, not {block_seconds}")
    path = source if isinstance(source, str) else os.fspath(source)
    if isinstance(path, bytes):
        path = path.decode()
    if _is_live(path):
        from .source import open_source

        return open_source(path, block_seconds, **options)
    if options:
        raise TypeError(f"open: {sorted(options)} are options of live sources, not of a recording")
    handle = c_void_p()
    C.check(C.lib.axon_recording_open(path.encode("utf-8"), byref(handle)))
    return Stream(handle, block_seconds)


_LIVE_KINDS = {"test-sequence", "cyton", "muse", "ganglion", "polar", "ble", "lsl", "sensor"}


def _is_live(text: str) -> bool:
    """Whether a SOURCE names a live source rather than a path (as the command line tells them apart)."""
    if text == "simulator":
        return True
    kind, colon, _ = text.partition(":")
    return bool(colon) and kind in _LIVE_KINDS


def read(path: str) -> Tuple[np.ndarray, np.ndarray, StreamInfo]:
    """The whole recording: ``(data, times, info)`` with data channels × frames (float64, each channel's unit),
    times one per frame (seconds), and the ``StreamInfo`` (labels, rate, gaps, markers, warnings)."""
    if isinstance(path, str) and _is_live(path):
        raise AxonValueError(f"read: {path!r} is a live source; read(path) reads a recording, open(source) streams")
    with open(path) as stream:
        block = _read_frames(stream._live("read"), stream.info.channel_count, 0, stream.info.frame_count)
        return block[0], block[1], stream.info


def _read_frames(handle: c_void_p, channels: int, start: int, count: int) -> Tuple[np.ndarray, np.ndarray]:
    data = np.empty((channels, count), dtype=np.float64)
    times = np.empty(count, dtype=np.float64)
    read = c_size_t(0)
    C.check(
        C.lib.axon_recording_read(
            handle,
            start,
            count,
            data.ctypes.data,
            data.size,
            times.ctypes.data,
            byref(read),
        )
    )
    if read.value < count:  # never past the end the caller asked within; kept for safety
        data, times = np.ascontiguousarray(data[:, : read.value]), times[: read.value]
    return data, times


def _info(handle: c_void_p) -> StreamInfo:
    raw = C.RecordingInfo()
    C.check(C.lib.axon_recording_get_info(handle, byref(raw)))
    channels = raw.channel_count
    labels = [C.text(C.lib.axon_recording_channel_label, handle, c) for c in builtins.range(channels)]
    units = [C.text(C.lib.axon_recording_channel_unit, handle, c) for c in builtins.range(channels)]
    gaps = (C.Gap * max(1, raw.gap_count))()
    count = c_size_t(0)
    C.check(C.lib.axon_recording_gaps(handle, 0, gaps, raw.gap_count, byref(count)))
    gap_list = [
        Gap(int(g.before_frame), int(g.missing_count), float(g.start_time), float(g.end_time))
        for g in gaps[: count.value]
    ]
    markers = (C.Marker * max(1, raw.marker_count))()
    C.check(C.lib.axon_recording_markers(handle, 0, markers, raw.marker_count, byref(count)))
    marker_list = [
        Marker(
            int(m.frame),
            float(m.time),
            float(m.value),
            C.text(C.lib.axon_recording_marker_text, handle, index) if m.has_text else None,
        )
        for index, m in enumerate(markers[: count.value])
    ]
    warnings = [C.text(C.lib.axon_recording_warning, handle, w) for w in builtins.range(raw.warning_count)]
    return StreamInfo(
        channel_count=channels,
        labels=labels,
        units=units,
        sample_rate=float(raw.sample_rate),
        frame_count=int(raw.frame_count),
        duration=float(raw.duration),
        start_time=float(raw.start_time),
        has_timestamps=bool(raw.has_timestamps),
        format=C.text(C.lib.axon_recording_format, handle),
        device_kind="recording",
        gaps=gap_list,
        markers=marker_list,
        warnings=warnings,
    )


def _from_array(data, sample_rate, labels=None, unit="µV", start_time=None) -> c_void_p:
    """A recording handle holding a caller's (channels × n) array; the caller closes it."""
    block = as_block(data, "data")
    channels, count = block.shape
    if not (isinstance(sample_rate, (int, float, np.number)) and sample_rate > 0 and math.isfinite(sample_rate)):
        raise AxonValueError(f"sample_rate must be a finite number above 0, not {sample_rate!r}")
    names = None
    if labels is not None:
        labels = list(labels)
        if len(labels) != channels:
            raise AxonValueError(f"{len(labels)} labels for {channels} channels")
        names = C.labels_array(labels)
    handle = c_void_p()
    C.check(
        C.lib.axon_recording_from_samples(
            block.ctypes.data,
            channels,
            count,
            float(sample_rate),
            names,
            unit.encode("utf-8") if unit is not None else None,
            math.nan if start_time is None else float(start_time),
            byref(handle),
        )
    )
    return handle


def as_block(data, name: str = "block", channels: Optional[int] = None) -> np.ndarray:
    """``data`` as a C-ordered float64 (channels × n) array, or ``AxonValueError`` saying what is wrong with it: not
    two-dimensional, another channel count, or not floating point (integer ADC counts are not µV: convert them
    knowingly)."""
    return np.ascontiguousarray(_checked_block(data, name, channels), dtype=np.float64)


def as_rows(data, name: str = "block", channels: Optional[int] = None) -> Tuple[np.ndarray, int]:
    """``data`` checked as ``as_block`` does, and the distance in values between its channels' first samples: a
    float64 block whose channels are each contiguous (a slice of samples out of a longer C-ordered array) is used
    in place; anything else is copied into a C-ordered block first (distance: its sample count)."""
    array = _checked_block(data, name, channels)
    item = np.dtype(np.float64).itemsize
    if (
        array.dtype == np.float64
        and array.strides[1] == item
        and array.strides[0] % item == 0
        and array.strides[0] >= array.shape[1] * item
    ):
        return array, array.strides[0] // item
    array = np.ascontiguousarray(array, dtype=np.float64)
    return array, array.shape[1]


def _checked_block(data, name: str, channels: Optional[int]) -> np.ndarray:
    array = np.asarray(data)
    if array.ndim != 2:
        raise AxonValueError(f"{name} must be a 2-D array (channels × samples), not {array.ndim}-D {array.shape}")
    if channels is not None and array.shape[0] != channels:
        raise AxonValueError(
            f"{name} has {array.shape[0]} channels (shape {array.shape}); expected {channels} × samples"
        )
    if array.dtype.kind != "f":
        raise AxonValueError(
            f"{name} must hold floating-point samples (µV), not {array.dtype}; convert with .astype(float) once the "
            "values are in µV"
        )
    return array
