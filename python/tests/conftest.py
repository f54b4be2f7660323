"""The package under test is the one in python/src, over the build tree's libAxonC.so (`swift build --build-tests`
makes it) unless AXON_LIBRARY names another; `make python-tests` runs this suite."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python" / "src"))
if not os.environ.get("AXON_LIBRARY"):
    os.environ["AXON_LIBRARY"] = str(ROOT / ".build" / "debug" / "libAxonC.so")
if not Path(os.environ["AXON_LIBRARY"]).is_file():
    raise SystemExit(f"{os.environ['AXON_LIBRARY']} is missing: build it first (swift build --build-tests)")

EDF = ROOT / "datasets" / "physionet-eegmmidb" / "S001R02.edf"
OPENBCI = ROOT / "datasets" / "openbci-cyton-eyes-closed" / "OpenBCI_GUI-v6-blinks-jawClench-alpha.txt"
MUSE = ROOT / "datasets" / "muse-p300" / "data_2017-02-04-15_45_13-first14s.csv"
AXON = ROOT / ".build" / "debug" / "axon"


@pytest.fixture(scope="session")
def gap_xdf(tmp_path_factory):
    """LabRecorder's XDF with a 60-s pause in its EEG stream (scripts/xdf-labrecorder-fixture.py)."""
    path = tmp_path_factory.mktemp("xdf") / "labrecorder.xdf"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "xdf-labrecorder-fixture.py"), "write", str(path)], check=True)
    return path
