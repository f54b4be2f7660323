"""``write``: EDF+ and BDF+ files through Axon's crash-safe writer (the one `axon record` uses)."""

from __future__ import annotations

import math
import os
from ctypes import byref, c_void_p
from typing import Iterable, Optional, Sequence, Tuple

import numpy as np

from . import _library as C
from .errors import AxonValueError
from .recording import as_block

__all__ = ["write"]

_FORMATS = {"edf": 0, "edf+": 0, "bdf": 1, "bdf+": 1}


def write(
    path,
    data,
    sample_rate: float,
    labels: Optional[Sequence[str]] = None,
    unit: str = "uV",
    *,
    format: Optional[str] = None,  # noqa: A002 - the word users expect
    physical_range: Optional[Tuple[float, float]] = None,
    start_time: Optional[float] = None,
    record_seconds: float = 1.0,
    annotations: Iterable[Tuple[float, float, str]] = (),
    overwrite: bool = False,
    allow_clipping: bool = False,
) -> None:
    """Writes ``data`` (channels × n, float, in ``unit``) as EDF+ (16-bit) or BDF+ (24-bit), chosen by ``format``
    or the path's extension (.edf / .bdf). ``annotations`` are (onset s, duration s or NaN, text). The header is
    rewritten and the file synced after every data record, so a killed process leaves a readable file.

    Nothing is lost silently: an existing file is refused unless ``overwrite=True``, and samples outside the
    physical range (default EDF+ ±3276.7, BDF+ ±838860 in ``unit``) are refused unless ``allow_clipping=True``,
    since the file would hold them clipped to its edge."""
    target = os.fspath(path)
    kind = (format or os.path.splitext(target)[1].lstrip(".")).lower()
    if kind not in _FORMATS:
        raise AxonValueError(f"write: format {kind!r} is not edf or bdf (give format= or a .edf/.bdf path)")
    if os.path.exists(target) and not overwrite:
        raise FileExistsError(f"write: {target} exists; pass overwrite=True to replace it")
    samples = as_block(data, "data")
    channels, count = samples.shape
    config = C.WriterConfig()
    C.check(C.lib.axon_writer_config_default(byref(config)))
    config.format = _FORMATS[kind]
    config.sample_rate = float(sample_rate)
    config.channel_count = channels
    names = None
    if labels is not None:
        labels = list(labels)
        if len(labels) != channels:
            raise AxonValueError(f"write: {len(labels)} labels for {channels} channels")
        names = C.labels_array(labels)
    config.channel_labels = names
    config.unit = unit.encode("utf-8")
    low, high = physical_range if physical_range is not None else ((-3276.7, 3276.7) if config.format == 0 else (-838860.0, 838860.0))
    if physical_range is not None:
        config.physical_min, config.physical_max = float(low), float(high)
    finite = samples[np.isfinite(samples)]
    if not allow_clipping and finite.size and (finite.min() < low or finite.max() > high):
        raise AxonValueError(
            f"write: samples span {finite.min():g} … {finite.max():g} {unit}, outside the physical range "
            f"{low:g} … {high:g}: give physical_range=, or allow_clipping=True to store them clipped"
        )
    config.start_time = math.nan if start_time is None else float(start_time)
    config.record_seconds = float(record_seconds)
    writer = c_void_p()
    C.check(C.lib.axon_writer_create(target.encode("utf-8"), byref(config), byref(writer)))
    try:
        # Annotations first: each then goes into the data record holding its onset as that record is written
        # (one given after its record would need a record of its own, padded, at the end of the file).
        for onset, duration, text in annotations:
            C.check(C.lib.axon_writer_annotate(writer, float(onset), float(duration), str(text).encode("utf-8")))
        C.check(C.lib.axon_writer_append(writer, samples.ctypes.data, channels, count))
    except BaseException:
        C.lib.axon_writer_close(byref(writer))
        raise
    C.check(C.lib.axon_writer_close(byref(writer)))
