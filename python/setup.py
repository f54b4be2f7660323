"""Builds libAxonC.so with the Swift toolchain and bundles it into the package (axon_eeg/_lib/).

The library is built in release mode with the Swift standard library and Foundation linked statically
(-static-stdlib), so the installed package needs neither the toolchain nor any Swift library at run time: ldd on the
bundled libAxonC.so lists only system libraries (glibc, libstdc++, FFTW, LAPACKE, SQLite, EDFlib). AXON_SWIFT names
another `swift` executable; AXON_PREBUILT_LIBRARY skips the build and bundles the library at that path.
"""

import os
import shutil
import subprocess
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent.parent  # the Axon repository: python/ is one of its folders
SCRATCH = ".build-python"


def build_library() -> Path:
    prebuilt = os.environ.get("AXON_PREBUILT_LIBRARY")
    if prebuilt:
        return Path(prebuilt)
    if not (ROOT / "Package.swift").is_file():
        raise SystemExit(
            f"axon-eeg: {ROOT} is not the Axon repository; install with `pip install ./python` from a clone"
        )
    swift = os.environ.get("AXON_SWIFT", "swift")
    command = [
        swift, "build", "-c", "release", "--product", "AxonC", "--scratch-path", SCRATCH,
        "-Xswiftc", "-static-stdlib",
    ]
    print("axon-eeg: " + " ".join(command), flush=True)
    subprocess.run(command, cwd=ROOT, check=True)
    return ROOT / SCRATCH / "release" / "libAxonC.so"


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        library = build_library()
        target = Path(self.build_lib) / "axon_eeg" / "_lib"
        target.mkdir(parents=True, exist_ok=True)
        bundled = target / "libAxonC.so"
        shutil.copy2(library, bundled)
        # The symbol table only serves debuggers: without it the library is a third smaller (110 MB → 69).
        if shutil.which("strip"):
            subprocess.run(["strip", "--strip-unneeded", str(bundled)], check=True)


class BinaryDistribution(Distribution):
    """A wheel for this platform: it carries a compiled library."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildWithLibrary}, distclass=BinaryDistribution)
