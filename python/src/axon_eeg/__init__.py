"""Axon from Python: its devices and recording readers, its EEG engine and its EDF+/BDF+ writer as NumPy arrays.

    import axon_eeg as axon
    data, times, info = axon.read("session.edf")           # channels × n float64 µV
    report = axon.analyze("session.edf")                    # what `axon analyze --json` prints
    with axon.Engine(info.sample_rate, labels=info.labels) as engine:
        engine.push(data)
        spectra = engine.spectra()                          # structured array, NaN for no peak

    with axon.open("cyton:/dev/ttyUSB0") as board:          # or muse:NAME, lsl:NAME, simulator, …
        for block in board:                                 # one second at a time, gaps visible
            engine.push(block)

Calls go through libAxonC.so (include/axon.h) with ctypes, which releases the GIL during each call; no Python code
ever runs on an Axon thread. Errors raise ``AxonError`` subclasses carrying Axon's own message.
"""

from . import _library
from .analysis import analyze
from .engine import ZONES, Engine
from .errors import (
    AxonClosedError,
    AxonDeviceError,
    AxonEndedError,
    AxonError,
    AxonFileNotFoundError,
    AxonFormatError,
    AxonIOError,
    AxonValueError,
)
from .mne import to_mne
from .recording import Block, Gap, Marker, Stream, StreamInfo, open, read
from .source import GAP_CAUSES, LiveStream
from .writer import write

__version__ = _library.lib.axon_version().decode()
#: The libAxonC.so this package loaded.
library_path = str(_library.LIBRARY_PATH)

__all__ = [
    "analyze", "Engine", "ZONES", "AxonError", "AxonValueError", "AxonFileNotFoundError", "AxonIOError",
    "AxonFormatError", "AxonClosedError", "AxonEndedError", "AxonDeviceError", "LiveStream", "GAP_CAUSES", "to_mne", "Block", "Gap", "Marker", "Stream", "StreamInfo", "open",
    "read", "write", "library_path",
]
