"""``analyze``: `axon analyze --json` as a call, on a file or on an array."""

from __future__ import annotations

import ctypes
import json
import os
from ctypes import byref, c_void_p
from typing import Any, Dict, Optional, Sequence

from . import _library as C
from .recording import _from_array

__all__ = ["analyze"]


def analyze(
    source,
    sample_rate: Optional[float] = None,
    labels: Optional[Sequence[str]] = None,
    unit: str = "µV",
    start_time: Optional[float] = None,
    *,
    channels: Optional[Sequence[str]] = None,
    window: Optional[int] = None,
    hop: Optional[int] = None,
    baseline: Optional[float] = None,
    indicator: Optional[float] = None,
    tmin: Optional[float] = None,
    tmax: Optional[float] = None,
    rail: Optional[float] = None,
    blink_scale: Optional[float] = None,
    keep_artifacts: Optional[bool] = None,
    bands: Optional[str] = None,
) -> Dict[str, Any]:
    """The report `axon analyze SOURCE --json` prints, as a dict: per channel and band the median, min and max
    dominant frequency and median power, signal quality, artifacts, the zone timeline, band powers and the
    individual alpha frequency.

    ``source`` is a recording's path, or a (channels × n) float array in µV with ``sample_rate`` (and optionally
    ``labels``, ``unit`` and ``start_time``, Unix seconds). The options are the command's flags: ``channels``,
    ``window``, ``hop``, ``baseline``, ``indicator``, ``tmin``/``tmax`` (its --from/--to, seconds), ``rail``,
    ``blink_scale``, ``keep_artifacts``, ``bands`` ("NAME=LO-HI,…"); None keeps the command's default. Releases the
    GIL while the engine runs."""
    options = {
        "channels": list(channels) if channels is not None else None,
        "window": window,
        "hop": hop,
        "baseline": baseline,
        "indicator": indicator,
        "from": tmin,
        "to": tmax,
        "rail": rail,
        "blink_scale": blink_scale,
        "keep_artifacts": keep_artifacts,
        "bands": bands,
    }
    text = json.dumps({key: value for key, value in options.items() if value is not None}).encode("utf-8")
    if isinstance(source, (str, bytes, os.PathLike)):
        if sample_rate is not None or labels is not None or start_time is not None:
            raise TypeError("analyze: sample_rate, labels and start_time describe an array, not a file")
        recording = c_void_p()
        C.check(C.lib.axon_recording_open(os.fsencode(source), byref(recording)))
    else:
        if sample_rate is None:
            raise TypeError("analyze: an array needs its sample_rate")
        recording = _from_array(source, sample_rate, labels, unit, start_time)
    analysis = c_void_p()
    try:
        C.check(C.lib.axon_analyze(recording, text, byref(analysis)))
        report = C.text(C.lib.axon_analysis_json, analysis)
    finally:
        C.lib.axon_recording_close(byref(recording))
        C.lib.axon_analysis_destroy(byref(analysis))
    return json.loads(report)
