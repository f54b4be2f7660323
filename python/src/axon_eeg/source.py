"""Live sources: a device, an LSL stream, a simulator or a recording replayed in real time, read in blocks.

``open("cyton:/dev/ttyUSB0")`` (or ``muse:NAME``, ``ganglion:NAME``, ``lsl:NAME``, ``simulator``,
``test-sequence:HZ``, ``sensor:FILE.json``) returns a ``LiveStream``: the device streams into Axon's pipeline from the
moment it opens (its ring, counter unwrapping and clock dejittering) and waits in a two-minute buffer until read.
Reads block with the GIL released. Samples that never arrived, and frames not read in time, come out as gaps.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import time
from ctypes import byref, c_size_t, c_void_p
from typing import Iterator, List, Optional

import numpy as np

from . import _library as C
from .errors import AxonValueError
from .recording import Block, Gap, StreamInfo

__all__ = ["LiveStream", "open_source", "GAP_CAUSES"]

#: axon.h's AXON_GAP_* causes by number.
GAP_CAUSES = {0: "device counter", 1: "overflow", 2: "link loss"}

# The longest single wait inside the library: short enough that Ctrl-C in Python is seen promptly.
_WAIT_SLICE = 0.25


class LiveStream(C.OwnedHandle):
    """A running source. A context manager; iterate it for ``Block``s of ``block_seconds``, or call
    ``read(seconds)``. ``Block.counters`` holds the device's counters (NaN without); ``Block.gap`` the samples
    missing just before the block. Closing stops the device.

    Threading: one thread reads at a time; ``close`` from the reading thread (or once no read runs).
    """

    _closer = "axon_source_close"
    _what = "stream"

    def __init__(self, handle: c_void_p, block_seconds: float) -> None:
        self._handle = handle
        self.block_seconds = block_seconds
        raw = C.SourceInfo()
        C.check(C.lib.axon_source_get_info(handle, byref(raw)))
        channels = raw.channel_count
        self.title = C.text(C.lib.axon_source_title, handle)
        self.info = StreamInfo(
            channel_count=channels,
            labels=[C.text(C.lib.axon_source_channel_label, handle, c) for c in range(channels)],
            units=[C.text(C.lib.axon_source_channel_unit, handle, c) for c in range(channels)],
            sample_rate=float(raw.sample_rate),
            frame_count=None,
            duration=None,
            start_time=math.nan,
            has_timestamps=True,
            format="",
            device_kind=C.text(C.lib.axon_source_kind, handle),
        )
        self._position = 0
        self._ended = False
        self._pending_gap: Optional[Gap] = None

    # Lifetime: close(), closed and `with` come from OwnedHandle; closing stops the device.

    @property
    def ended(self) -> bool:
        """The stream has ended and every frame was read."""
        return self._ended

    # Reading ----------------------------------------------------------------------------------------------------
    def read(self, seconds: Optional[float] = None, timeout: Optional[float] = None) -> Block:
        """The next ``seconds`` of frames (default ``block_seconds``), waiting for them. Returns early, with fewer
        frames, where samples are missing (the next block carries the ``gap``), when the stream ends (an empty
        block once everything was read) or after ``timeout`` seconds (None: no limit)."""
        handle = self._live("read")
        seconds = self.block_seconds if seconds is None else seconds
        if not (seconds > 0 and math.isfinite(seconds)):
            raise AxonValueError(f"read: seconds must be finite and above 0, not {seconds}")
        if timeout is not None and not timeout >= 0:
            raise AxonValueError(f"read: timeout must be ≥ 0 seconds, not {timeout}")
        rate = self.info.sample_rate or 1.0
        wanted = max(1, round(seconds * rate))
        channels = self.info.channel_count
        data = np.empty((channels, wanted), dtype=np.float64)
        times = np.empty(wanted, dtype=np.float64)
        counters = np.empty(wanted, dtype=np.float64)
        chunk = np.empty((channels, wanted), dtype=np.float64)
        chunk_times = np.empty(wanted, dtype=np.float64)
        chunk_counters = np.empty(wanted, dtype=np.float64)
        gap_before, self._pending_gap = self._pending_gap, None
        filled = 0
        deadline = None if timeout is None else time.monotonic() + timeout
        read = c_size_t(0)
        gap = C.SourceGap()
        while filled < wanted and not self._ended:
            wait = _WAIT_SLICE if deadline is None else max(0.0, min(_WAIT_SLICE, deadline - time.monotonic()))
            count = wanted - filled
            status = C.lib.axon_source_read(
                handle, count, wait, chunk.ctypes.data, chunk.size,
                chunk_times.ctypes.data, chunk_counters.ctypes.data, byref(read),
                byref(gap),
            )
            if status == C.ERR_ENDED:
                self._ended = True
                break
            C.check(status)
            if gap.missing_count > 0:
                found = Gap(
                    self._position + filled, int(gap.missing_count), gap.start_time, gap.end_time,
                    GAP_CAUSES.get(gap.cause, "unknown"),
                )
                if filled == 0 and gap_before is None:
                    gap_before = found
                    continue
                self._pending_gap = found  # this block ends here; the next one starts after the gap
                break
            n = read.value
            # The library wrote channel-major with a stride of `count`.
            data[:, filled:filled + n] = chunk.reshape(-1)[: channels * count].reshape(channels, count)[:, :n]
            times[filled:filled + n] = chunk_times[:n]
            counters[filled:filled + n] = chunk_counters[:n]
            filled += n
            if deadline is not None and time.monotonic() >= deadline:
                break
        block = Block(
            np.ascontiguousarray(data[:, :filled]), times[:filled].copy(), self._position, gap_before,
            counters[:filled].copy(),
        )
        self._position += filled
        return block

    def __iter__(self) -> Iterator[Block]:
        while True:
            block = self.read()
            if len(block) == 0 and block.gap is None:
                if self._ended:
                    return
                continue
            yield block



def open_source(source: str, block_seconds: float = 1.0, **options) -> LiveStream:
    """Opens a live SOURCE; ``options`` are axon_source_open's: ``channels`` (a Cyton's), ``bus``,
    ``search_seconds``, ``lsl_config``, ``muse_preset``, ``seconds``, ``speed`` (a simulator's or a replay's)."""
    if source.startswith("lsl:"):
        _use_pylsl_liblsl()
    handle = c_void_p()
    text = json.dumps({key: value for key, value in options.items() if value is not None}).encode("utf-8")
    C.check(C.lib.axon_source_open(source.encode("utf-8"), text, byref(handle)))
    return LiveStream(handle, block_seconds)


def _use_pylsl_liblsl() -> None:
    """Points Axon at the liblsl inside the pylsl package (its wheel ships one) unless AXON_LIBLSL names one: the
    library looks there first, then in a checkout's .liblsl/ and the system's library path."""
    if os.environ.get("AXON_LIBLSL"):
        return
    spec = importlib.util.find_spec("pylsl")
    if spec is None or not spec.submodule_search_locations:
        return
    for folder in spec.submodule_search_locations:
        candidate = os.path.join(folder, "lib", "liblsl.so")
        if os.path.isfile(candidate):
            os.environ["AXON_LIBLSL"] = candidate
            return
