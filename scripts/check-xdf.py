#!/usr/bin/env python3
"""Reads an XDF file with pyxdf (the reference reader) and prints one JSON object describing every stream.

Usage: check-xdf.py FILE [--synchronize] [--values]

Per stream (keyed by name): the header fields (type, channel_count, nominal_srate, channel_format, source_id),
the channel labels and units of desc/channels, the sample count, the first and last timestamp, the footer's
sample_count (null without a footer), and the values: for numeric streams the first sample and the sum of all
values, for string streams every sample. Timestamps are read as stored (no clock sync, no dejitter); with
--synchronize, pyxdf applies the ClockOffset chunks (its clock synchronisation, still no dejitter) and each stream
also lists its timestamps and the clock offset values pyxdf read. With --values, every stream also lists every
timestamp ("timestamps") and numeric sample ("values"), the clock offsets pyxdf read ("clock_times", "clock_values"), how many offsets its
footer lists ("footer_offsets") and the footer's first and last timestamp ("footer_first", "footer_last").
A NaN value is written as null.
"""
import json
import sys

import numpy as np
import pyxdf


def text(info, key):
    value = info.get(key)
    return value[0] if value else None


def without_nan(value):
    """`value` with every NaN (a feature stream's "none here") as null, which JSON can carry."""
    if isinstance(value, float) and value != value:
        return None
    if isinstance(value, list):
        return [without_nan(item) for item in value]
    if isinstance(value, dict):
        return {key: without_nan(item) for key, item in value.items()}
    return value


def main():
    synchronize = "--synchronize" in sys.argv[2:]
    values = "--values" in sys.argv[2:]
    streams, _header = pyxdf.load_xdf(sys.argv[1], synchronize_clocks=synchronize, dejitter_timestamps=False)
    result = {}
    for stream in streams:
        info = stream["info"]
        labels, units = [], []
        desc = info.get("desc") or [None]
        if desc[0] and "channels" in desc[0]:
            for channel in desc[0]["channels"][0]["channel"]:
                labels.append(channel["label"][0] or "")
                units.append((channel["unit"][0] or "") if channel.get("unit") else "")
        stamps = stream["time_stamps"]
        series = stream["time_series"]
        record = {
            "type": text(info, "type"), "channel_count": int(text(info, "channel_count")),
            "nominal_srate": float(text(info, "nominal_srate")), "channel_format": text(info, "channel_format"),
            "source_id": text(info, "source_id"), "labels": labels, "units": units, "count": len(stamps),
            "first_timestamp": float(stamps[0]) if len(stamps) else None,
            "last_timestamp": float(stamps[-1]) if len(stamps) else None,
            "footer_count": int(stream["footer"]["info"]["sample_count"][0]) if "footer" in stream else None,
        }
        if synchronize or values:
            record["timestamps"] = [float(stamp) for stamp in stamps]
            record["clock_values"] = [float(value) for value in stream.get("clock_values", [])]
        if values:
            record["clock_times"] = [float(time) for time in stream.get("clock_times", [])]
            record["clock_values"] = [float(value) for value in stream.get("clock_values", [])]
            offsets = ((stream.get("footer") or {}).get("info") or {}).get("clock_offsets") or [None]
            record["footer_offsets"] = len((offsets[0] or {}).get("offset", [])) if offsets[0] else 0
            footer = (stream.get("footer") or {}).get("info") or {}
            record["footer_first"] = float(footer["first_timestamp"][0]) if "first_timestamp" in footer else None
            record["footer_last"] = float(footer["last_timestamp"][0]) if "last_timestamp" in footer else None
            if text(info, "channel_format") != "string":
                record["values"] = np.asarray(series, dtype=np.float64).tolist()
        if text(info, "channel_format") == "string":
            record["strings"] = series
        else:
            array = np.asarray(series, dtype=np.float64)
            record["first"] = array[0].tolist() if len(array) else []
            record["sum"] = float(array.sum())
        result[text(info, "name")] = record
    print(json.dumps(without_nan(result), allow_nan=False))


if __name__ == "__main__":
    main()
