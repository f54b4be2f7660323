"""libAxonC.so loaded with ctypes: the structs and signatures of include/axon.h, and errors raised from its statuses.

ctypes releases the GIL for every call into the library (it is loaded with ``ctypes.CDLL``), so a long call (reading
a large file, analysing an hour) lets other Python threads run. The library never calls back into Python.
"""

from __future__ import annotations

import ctypes
import os
from ctypes import POINTER, c_char, c_char_p, c_double, c_int, c_int32, c_int64, c_size_t, c_void_p
from pathlib import Path

from .errors import error_for_status

ABI_VERSION = 1
MAX_BANDS = 8

# Statuses of axon.h.
OK = 0
ERR_BUFFER_TOO_SMALL = -5
ERR_ENDED = -7


class RecordingInfo(ctypes.Structure):
    _fields_ = [
        ("channel_count", c_size_t),
        ("frame_count", c_int64),
        ("sample_rate", c_double),
        ("duration", c_double),
        ("has_timestamps", c_int32),
        ("start_time", c_double),
        ("gap_count", c_size_t),
        ("marker_count", c_size_t),
        ("warning_count", c_size_t),
    ]


class Marker(ctypes.Structure):
    _fields_ = [("frame", c_int64), ("time", c_double), ("value", c_double), ("has_text", c_int32)]


class Gap(ctypes.Structure):
    _fields_ = [("before_frame", c_int64), ("missing_count", c_int64), ("start_time", c_double), ("end_time", c_double)]


class SourceInfo(ctypes.Structure):
    _fields_ = [("channel_count", c_size_t), ("sample_rate", c_double)]


class SourceGap(ctypes.Structure):
    _fields_ = [("missing_count", c_int64), ("start_time", c_double), ("end_time", c_double), ("cause", c_int32)]


class Band(ctypes.Structure):
    _fields_ = [("low_hz", c_double), ("high_hz", c_double)]


class EngineConfig(ctypes.Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("sample_rate", c_double),
        ("channel_count", c_size_t),
        ("channel_labels", POINTER(c_char_p)),
        ("window_size", c_int32),
        ("hop", c_int32),
        ("baseline_seconds", c_double),
        ("indicator_seconds", c_double),
        ("rail_magnitude", c_double),
        ("blink_scale", c_double),
        ("exclude_artifacts", c_int32),
        ("band_count", c_size_t),
        ("bands", Band * MAX_BANDS),
        ("theta_band", c_int32),
        ("alpha_band", c_int32),
        ("beta_band", c_int32),
        ("start_time", c_double),
    ]


class ChannelQuality(ctypes.Structure):
    _fields_ = [
        ("railed_fraction", c_double),
        ("power", c_double),
        ("line_share", c_double),
        ("muscle_share", c_double),
        ("slow_swing", c_double),
        ("usable", c_int32),
    ]


class SpectrumRow(ctypes.Structure):
    _fields_ = [
        ("window", c_int64),
        ("sample_index", c_int64),
        ("time", c_double),
        ("channel", c_size_t),
        ("filled_samples", c_int32),
        ("artifacts", c_int32),
        ("excluded", c_int32),
        ("baseline_state", c_int32),
        ("band_count", c_size_t),
        ("dominant_hz", c_double * MAX_BANDS),
        ("peak_power", c_double * MAX_BANDS),
        ("band_power", c_double * MAX_BANDS),
        ("relative_power", c_double * MAX_BANDS),
        ("reference_power", c_double),
        ("quality", ChannelQuality),
    ]


class Indicator(ctypes.Structure):
    _fields_ = [
        ("index", c_int64),
        ("sample_index", c_int64),
        ("time", c_double),
        ("zone", c_int32),
        ("percent", c_double),
        ("frames", c_int32),
        ("excluded_frames", c_int32),
        ("band_count", c_size_t),
        ("z_scores", c_double * MAX_BANDS),
    ]


class ChannelZone(ctypes.Structure):
    _fields_ = [
        ("indicator", c_int64),
        ("channel", c_size_t),
        ("zone", c_int32),
        ("percent", c_double),
        ("z_scores", c_double * MAX_BANDS),
    ]


class WriterConfig(ctypes.Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("format", c_int32),
        ("sample_rate", c_double),
        ("channel_count", c_size_t),
        ("channel_labels", POINTER(c_char_p)),
        ("unit", c_char_p),
        ("physical_min", c_double),
        ("physical_max", c_double),
        ("start_time", c_double),
        ("record_seconds", c_double),
    ]


_handle = POINTER(c_void_p)  # an opaque handle's address (axon_x **)
# Arrays go in as their address (a NumPy array's .ctypes.data, an int): converting an int is the cheapest argument
# ctypes takes, where array.ctypes.data_as(POINTER(c_double)) costs microseconds per call.
_array = c_void_p
_sizes = POINTER(c_size_t)

# name: (return type, argument types)
_SIGNATURES = {
    "axon_version": (c_char_p, []),
    "axon_abi_version": (c_int, []),
    "axon_status_name": (c_char_p, [c_int]),
    "axon_last_error": (c_char_p, []),
    "axon_zone_name": (c_char_p, [c_int]),
    "axon_recording_open": (c_int, [c_char_p, _handle]),
    "axon_recording_from_samples": (
        c_int,
        [_array, c_size_t, c_size_t, c_double, POINTER(c_char_p), c_char_p, c_double, _handle],
    ),
    "axon_recording_close": (c_int, [_handle]),
    "axon_recording_get_info": (c_int, [c_void_p, POINTER(RecordingInfo)]),
    "axon_recording_read": (c_int, [c_void_p, c_int64, c_size_t, _array, c_size_t, _array, _sizes]),
    "axon_recording_markers": (c_int, [c_void_p, c_size_t, POINTER(Marker), c_size_t, _sizes]),
    "axon_recording_gaps": (c_int, [c_void_p, c_size_t, POINTER(Gap), c_size_t, _sizes]),
    "axon_recording_channel_label": (c_int, [c_void_p, c_size_t, POINTER(c_char), c_size_t, _sizes]),
    "axon_recording_channel_unit": (c_int, [c_void_p, c_size_t, POINTER(c_char), c_size_t, _sizes]),
    "axon_recording_format": (c_int, [c_void_p, POINTER(c_char), c_size_t, _sizes]),
    "axon_recording_marker_text": (c_int, [c_void_p, c_size_t, POINTER(c_char), c_size_t, _sizes]),
    "axon_recording_warning": (c_int, [c_void_p, c_size_t, POINTER(c_char), c_size_t, _sizes]),
    "axon_analyze": (c_int, [c_void_p, c_char_p, _handle]),
    "axon_analysis_json": (c_int, [c_void_p, POINTER(c_char), c_size_t, _sizes]),
    "axon_analysis_destroy": (c_int, [_handle]),
    "axon_source_open": (c_int, [c_char_p, c_char_p, _handle]),
    "axon_source_close": (c_int, [_handle]),
    "axon_source_get_info": (c_int, [c_void_p, POINTER(SourceInfo)]),
    "axon_source_channel_label": (c_int, [c_void_p, c_size_t, POINTER(c_char), c_size_t, _sizes]),
    "axon_source_channel_unit": (c_int, [c_void_p, c_size_t, POINTER(c_char), c_size_t, _sizes]),
    "axon_source_kind": (c_int, [c_void_p, POINTER(c_char), c_size_t, _sizes]),
    "axon_source_title": (c_int, [c_void_p, POINTER(c_char), c_size_t, _sizes]),
    "axon_source_read": (
        c_int,
        [c_void_p, c_size_t, c_double, _array, c_size_t, _array, _array, _sizes, POINTER(SourceGap)],
    ),
    "axon_engine_config_default": (c_int, [POINTER(EngineConfig)]),
    "axon_engine_config_for_recording": (c_int, [c_void_p, POINTER(EngineConfig)]),
    "axon_engine_create": (c_int, [POINTER(EngineConfig), _handle]),
    "axon_engine_destroy": (c_int, [_handle]),
    "axon_engine_push": (c_int, [c_void_p, _array, c_size_t, c_size_t]),
    "axon_engine_push_timed": (c_int, [c_void_p, _array, _array, c_size_t, c_size_t]),
    "axon_engine_push_strided": (c_int, [c_void_p, _array, c_size_t, _array, c_size_t, c_size_t]),
    "axon_engine_skip": (c_int, [c_void_p, c_int64]),
    "axon_engine_pending": (c_int, [c_void_p, _sizes, _sizes]),
    "axon_engine_take_spectra": (c_int, [c_void_p, c_void_p, c_size_t, _sizes]),
    "axon_engine_take_indicators": (
        c_int,
        [c_void_p, POINTER(Indicator), c_size_t, POINTER(ChannelZone), c_size_t, _sizes],
    ),
    "axon_writer_config_default": (c_int, [POINTER(WriterConfig)]),
    "axon_writer_create": (c_int, [c_char_p, POINTER(WriterConfig), _handle]),
    "axon_writer_append": (c_int, [c_void_p, _array, c_size_t, c_size_t]),
    "axon_writer_annotate": (c_int, [c_void_p, c_double, c_double, c_char_p]),
    "axon_writer_close": (c_int, [_handle]),
}


def _library_path() -> Path:
    """AXON_LIBRARY when set (a build tree's libAxonC.so), else the copy bundled inside this package."""
    override = os.environ.get("AXON_LIBRARY")
    if override:
        return Path(override)
    return Path(__file__).resolve().parent / "_lib" / "libAxonC.so"


def _load() -> ctypes.CDLL:
    path = _library_path()
    if not path.is_file():
        raise ImportError(
            f"axon_eeg: {path} is missing; install the package with `pip install ./python` (which builds and bundles "
            "libAxonC.so), or point AXON_LIBRARY at a built libAxonC.so"
        )
    library = ctypes.CDLL(str(path))
    for name, (result, arguments) in _SIGNATURES.items():
        function = getattr(library, name)
        function.restype = result
        function.argtypes = arguments
    loaded = library.axon_abi_version()
    if loaded != ABI_VERSION:
        raise ImportError(f"axon_eeg: {path} implements C interface version {loaded}; this package needs {ABI_VERSION}")
    return library


lib = _load()
LIBRARY_PATH = _library_path()


def check(status: int) -> None:
    """Raises the exception for a failed call's status, with axon_last_error()'s message (read on this thread)."""
    if status != OK:
        message = lib.axon_last_error().decode("utf-8", "replace")
        raise error_for_status(status, lib.axon_status_name(status).decode(), message)


def text(getter, *arguments) -> str:
    """A text from one of axon.h's text getters: asks the length, then copies into a buffer that fits."""
    length = c_size_t(0)
    status = getter(*arguments, None, 0, ctypes.byref(length))
    if status not in (OK, ERR_BUFFER_TOO_SMALL):
        check(status)
    buffer = ctypes.create_string_buffer(length.value + 1)
    check(getter(*arguments, buffer, len(buffer), ctypes.byref(length)))
    return buffer.raw[: length.value].decode("utf-8")


def labels_array(labels):
    """A C array of UTF-8 strings (char *const *) from Python strings; keep the result alive while C reads it."""
    array = (c_char_p * len(labels))()
    for index, label in enumerate(labels):
        array[index] = str(label).encode("utf-8")
    return array


class OwnedHandle:
    """An object owning one library handle: ``close()`` frees it once (twice is allowed), a ``with`` block closes
    it, and so does garbage collection; a call after closing raises ``AxonClosedError``. Subclasses set ``_closer``
    (the axon_*_close or _destroy function's name) and ``_what`` (the word in messages)."""

    _closer = ""
    _what = "handle"
    _handle = None

    def close(self) -> None:
        if self._handle is not None:
            handle = self._handle
            self._handle = None
            check(getattr(lib, self._closer)(ctypes.byref(handle)))

    @property
    def closed(self) -> bool:
        return self._handle is None

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def _live(self, call: str):
        if self._handle is None:
            from .errors import AxonClosedError

            raise AxonClosedError(f"{call}: the {self._what} is closed")
        return self._handle
