#!/usr/bin/env python3
"""What the reference readers find of a person in recordings (AnonymizeCommandTests runs it from .venv-peers).

  identity-peers.py edf IN.edf OUT.edf     pyedflib's and MNE's identification fields, start and annotations of
                                           each file, and the largest difference between their signals
  identity-peers.py xdf IN.xdf OUT.xdf     pyxdf's stream headers (every element, as paths) and text samples of
                                           each file, and the largest difference between their first streams
  identity-peers.py labrecorder OUT.xdf    writes a LabRecorder-style XDF that carries a person: host name, a
                                           device serial as source_id, a session id, <desc><subject>, markers

Prints one JSON object; every value as text.
"""
import json
import struct
import sys


def edf(path):
    import mne
    import numpy as np
    import pyedflib

    reader = pyedflib.EdfReader(path)
    header = {key: str(value) for key, value in reader.getHeader().items()}
    annotations = [str(text) for text in reader.readAnnotations()[2]]
    signals = [reader.readSignal(i) for i in range(reader.signals_in_file)]
    start = reader.getStartdatetime().isoformat()
    reader.close()
    read = mne.io.read_raw_bdf if path.lower().endswith(".bdf") else mne.io.read_raw_edf
    raw = read(path, preload=True, verbose="error")
    subject = raw.info.get("subject_info") or {}
    return {
        "pyedflib": header,
        "pyedflib_annotations": annotations,
        "pyedflib_start": start,
        "mne_subject": {key: str(value) for key, value in subject.items()},
        "mne_experimenter": str(raw.info.get("experimenter") or ""),
        "mne_meas_date": raw.info["meas_date"].replace(tzinfo=None).isoformat() if raw.info["meas_date"] else "",
        "mne_annotations": [str(text) for text in raw.annotations.description],
    }, np.array(signals), raw.get_data()


def leaves(element, prefix, out):
    for key, values in element.items():
        for value in values if isinstance(values, list) else [values]:
            path = prefix + "/" + key
            if isinstance(value, dict):
                leaves(value, path, out)
            elif value is not None:
                out.append([path, str(value)])
    return out


def xdf(path):
    import pyxdf

    streams, header = pyxdf.load_xdf(path, synchronize_clocks=True, dejitter_timestamps=False)
    described = []
    for stream in streams:
        info = stream["info"]
        samples = stream["time_series"]
        texts = [str(x) for row in samples for x in row] if info["channel_format"][0] == "string" else []
        described.append({
            "elements": leaves(info, "info", []),
            "texts": texts,
            "first_timestamp": str(stream["time_stamps"][0]) if len(stream["time_stamps"]) else "",
        })
    first = [s for s in streams if s["info"]["channel_format"][0] != "string"]
    return {"file_header": leaves(header["info"], "info", []), "streams": described}, first[0]["time_series"]


def chunk(tag, content):
    length = len(content) + 2
    head = bytes([1, length]) if length < 256 else bytes([4]) + struct.pack("<I", length)
    return head + struct.pack("<H", tag) + content


def count(n):
    return bytes([1, n]) if n < 256 else bytes([4]) + struct.pack("<I", n)


def labrecorder(path):
    """Two streams as LabRecorder writes them from other applications' outlets."""
    eeg = (
        "<?xml version=\"1.0\"?><info><name>Muse-7A1B</name><type>EEG</type><channel_count>2</channel_count>"
        "<nominal_srate>250</nominal_srate><channel_format>double64</channel_format>"
        "<source_id>Muse-00:55:DA:B0:1E:2C</source_id><version>1.1</version><created_at>1000</created_at>"
        "<uid>5b3c</uid><session_id>jane-doe-session</session_id><hostname>lab-pc-jane</hostname>"
        "<desc><channels><channel><label>TP9</label><unit>microvolts</unit></channel>"
        "<channel><label>AF7</label><unit>microvolts</unit></channel></channels>"
        "<subject><id>S042</id><name>Jane Doe</name><birthdate>1971-03-14</birthdate></subject>"
        "<acquisition><manufacturer>Interaxon</manufacturer><serial_number>7A1B-2231</serial_number>"
        "</acquisition></desc></info>"
    )
    markers = (
        "<?xml version=\"1.0\"?><info><name>Markers</name><type>Markers</type><channel_count>1</channel_count>"
        "<nominal_srate>0</nominal_srate><channel_format>string</channel_format>"
        "<source_id>presentation-jane</source_id><hostname>lab-pc-jane</hostname><desc/></info>"
    )
    out = bytearray(b"XDF:")
    out += chunk(1, b"<?xml version=\"1.0\"?><info><version>1.0</version>"
                    b"<datetime>2024-05-06T07:08:09+0000</datetime></info>")
    out += chunk(2, struct.pack("<I", 1) + eeg.encode())
    out += chunk(2, struct.pack("<I", 2) + markers.encode())
    rate, n = 250.0, 2500
    body = struct.pack("<I", 1) + count(n)
    for i in range(n):
        body += bytes([8]) + struct.pack("<d", 1000.0 + i / rate)
        body += struct.pack("<dd", 10.0 * ((i % 50) - 25) / 25, -3.5 + (i % 7))
    out += chunk(3, body)
    for t, text in [(1001.0, "Jane said she felt dizzy"), (1005.0, "eyes closed")]:
        data = text.encode()
        out += chunk(3, struct.pack("<I", 2) + count(1) + bytes([8]) + struct.pack("<d", t) + count(len(data)) + data)
    with open(path, "wb") as f:
        f.write(out)
    return {"written": path}


def main():
    mode = sys.argv[1]
    if mode == "labrecorder":
        print(json.dumps(labrecorder(sys.argv[2])))
        return
    import numpy as np

    if mode == "edf":
        (before, signals_in, mne_in), (after, signals_out, mne_out) = edf(sys.argv[2]), edf(sys.argv[3])
        result = {"in": before, "out": after,
                  "pyedflib_max_difference": str(float(np.max(np.abs(signals_in - signals_out)))),
                  "mne_max_difference": str(float(np.max(np.abs(mne_in - mne_out))))}
    else:
        (before, values_in), (after, values_out) = xdf(sys.argv[2]), xdf(sys.argv[3])
        result = {"in": before, "out": after,
                  "max_difference": str(float(np.max(np.abs(np.asarray(values_in) - np.asarray(values_out)))))}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
