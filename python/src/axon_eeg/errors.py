"""The exceptions Axon raises: one per status of include/axon.h, each carrying the library's own message.

Each also derives from the built-in exception a Python user would catch for the same trouble, so
``except FileNotFoundError`` and ``except ValueError`` work as expected.
"""

from __future__ import annotations


class AxonError(Exception):
    """Any failure reported by Axon. ``status`` is the C status name (``AXON_ERR_NOT_FOUND``, …)."""

    def __init__(self, message: str, status: str = "") -> None:
        super().__init__(message)
        self.status = status


class AxonValueError(AxonError, ValueError):
    """An argument Axon cannot use: a value out of range, a wrong channel name, a block of the wrong shape or dtype,
    a non-finite sample."""


class AxonFileNotFoundError(AxonError, FileNotFoundError):
    """The file does not exist."""


class AxonIOError(AxonError, OSError):
    """The file exists but cannot be read or written."""


class AxonFormatError(AxonError, ValueError):
    """The file is not a recording Axon reads, or is damaged beyond what its reader repairs."""


class AxonClosedError(AxonError, ValueError):
    """The stream, engine, writer or recording was closed."""


class AxonEndedError(AxonError, EOFError):
    """A source's stream has ended and every frame was read."""


class AxonDeviceError(AxonError, ConnectionError):
    """A device could not be found or opened, or its stream failed."""


_BY_STATUS = {
    "AXON_ERR_INVALID_ARGUMENT": AxonValueError,
    "AXON_ERR_NOT_FOUND": AxonFileNotFoundError,
    "AXON_ERR_IO": AxonIOError,
    "AXON_ERR_FORMAT": AxonFormatError,
    "AXON_ERR_CLOSED_HANDLE": AxonClosedError,
    "AXON_ERR_ENDED": AxonEndedError,
    "AXON_ERR_DEVICE": AxonDeviceError,
}


def error_for_status(status: int, name: str, message: str) -> AxonError:
    """The exception for a C status code and the library's message."""
    return _BY_STATUS.get(name, AxonError)(message or name, name)
