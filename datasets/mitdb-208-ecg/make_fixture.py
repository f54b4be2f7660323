"""Makes ecg-130hz-uv.csv and rr.csv from SciPy 1.11.4's scipy/misc/ecg.dat (see README.md beside this file).

    python3 make_fixture.py PATH/TO/scipy/misc/ecg.dat

Needs numpy and scipy (any recent version; .venv-peers has both).
"""

import sys

import numpy as np
from scipy.signal import find_peaks, resample_poly

SOURCE_RATE = 360
SECONDS = 70

with np.load(sys.argv[1]) as file:
    raw = file["ecg"].astype(int)
millivolts = (raw - 1024) / 200.0  # as scipy.misc.electrocardiogram(): (ADC − zero 1024) / gain 200
cut = millivolts[: SOURCE_RATE * SECONDS]
ecg = resample_poly(cut, 13, 36)  # 360 Hz → 130 Hz (130/360 = 13/36): polyphase FIR, Kaiser window
microvolts = np.rint(ecg * 1000).astype(int)
with open("ecg-130hz-uv.csv", "w") as out:
    out.write("ecg_uv\n")
    for value in microvolts:
        out.write("%d\n" % value)

# Beats: peaks of |ECG − median| on the 360 Hz cut, at least 0.3 s apart with a prominence of 0.5 mV (catches the
# normal beats and the premature ventricular ones of this record); RR = the time between consecutive beats in ms.
peaks, _ = find_peaks(np.abs(cut - np.median(cut)), distance=int(0.3 * SOURCE_RATE), prominence=0.5)
with open("rr.csv", "w") as out:
    out.write("beat_s,rr_ms\n")
    for previous, peak in zip(peaks, peaks[1:]):
        out.write("%.4f,%d\n" % (peak / SOURCE_RATE, round((peak - previous) * 1000 / SOURCE_RATE)))
