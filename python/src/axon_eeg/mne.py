"""``to_mne``: a recording or an array as ``mne.io.RawArray`` (MNE-Python is optional: ``pip install axon-eeg[mne]``)."""

from __future__ import annotations

import datetime
import math
import os
from typing import Optional, Sequence

import numpy as np

from .recording import as_block, read

__all__ = ["to_mne"]

_MICROVOLTS = {"µV", "uV", "μV", "microvolt", "microvolts"}


def to_mne(source, sample_rate: Optional[float] = None, labels: Optional[Sequence[str]] = None, unit: str = "µV"):
    """``source`` (a recording's path, or a channels × n float array in ``unit`` with ``sample_rate``) as an
    ``mne.io.RawArray``: µV channels become EEG channels in volts (MNE's unit), other channels ``misc`` in their own
    unit; a file's markers become annotations and its start time the measurement date."""
    try:
        import mne
    except ImportError as error:
        raise ImportError("to_mne needs MNE-Python (pip install mne, or axon-eeg[mne])") from error
    markers = []
    start = math.nan
    if isinstance(source, (str, bytes, os.PathLike)):
        data, _, info = read(source)
        sample_rate, labels, units = info.sample_rate, info.labels, info.units
        markers, start = info.markers, info.start_time
    else:
        if sample_rate is None:
            raise TypeError("to_mne: an array needs its sample_rate")
        data = as_block(source, "data")
        labels = list(labels) if labels is not None else [f"ch{n}" for n in range(1, data.shape[0] + 1)]
        units = [unit] * data.shape[0]
    eeg = [u in _MICROVOLTS for u in units]
    scaled = np.where(np.array(eeg)[:, None], data * 1e-6, data)
    mne_info = mne.create_info(list(labels), float(sample_rate), ["eeg" if e else "misc" for e in eeg])
    raw = mne.io.RawArray(scaled, mne_info, verbose="error")
    if math.isfinite(start):
        raw.set_meas_date(datetime.datetime.fromtimestamp(start, tz=datetime.timezone.utc))
    if markers:
        onsets = [m.frame / sample_rate for m in markers]
        descriptions = [m.text if m.text is not None else f"{m.value:g}" for m in markers]
        raw.set_annotations(mne.Annotations(onsets, [0.0] * len(onsets), descriptions))
    return raw
