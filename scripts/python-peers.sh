#!/usr/bin/env bash
# Creates .venv-peers (python3 -m venv) with the real peers the interop tests talk to: the EDF readers pyedflib
# and MNE, which check the files we write, elm327-emulator (module `elm`), the ELM327 OBD-II dongle the OBD
# tests connect to, pylsl (whose wheel ships liblsl, the Lab Streaming Layer library), the XDF reader pyxdf,
# pybv, the BrainVision writer MNE's export_raw(fmt="brainvision") needs, and python-osc (module `pythonosc`), the
# OSC sender that streams as Mind Monitor does; and pytest with pandas for the Python package's tests (python/tests).
# liblsl is then linked as .liblsl/liblsl.so, where Axon looks for it at run time (after AXON_LIBLSL). Idempotent and quiet: installs only what is missing, prints one line when it installs.
# The Swift interop tests run only when .venv-peers/bin/python exists.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv-peers"
python="$venv/bin/python"

# python3 and python3-venv come from scripts/install-deps.sh (make deps).
[ -x "$python" ] || python3 -m venv "$venv"

# module:package pairs (the import name and the PyPI name differ for the emulator).
missing=()
for pair in pyedflib:pyedflib mne:mne elm:elm327-emulator pylsl:pylsl pyxdf:pyxdf pybv:pybv pythonosc:python-osc pytest:pytest pandas:pandas; do
    "$python" -c "import ${pair%%:*}" 2>/dev/null || missing+=("${pair#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "python-peers: installing ${missing[*]} into .venv-peers"
    "$python" -m pip install --quiet --disable-pip-version-check --upgrade pip
    "$python" -m pip install --quiet --disable-pip-version-check "${missing[@]}"
fi

# The liblsl inside the pylsl wheel, where Axon finds it without a system install.
liblsl="$("$python" -c 'import os, pylsl; print(os.path.join(os.path.dirname(pylsl.__file__), "lib", "liblsl.so"))')"
[ -f "$liblsl" ] || { echo "python-peers: the pylsl wheel has no $liblsl" >&2; exit 1; }
mkdir -p "$root/.liblsl"
[ "$(readlink "$root/.liblsl/liblsl.so" 2>/dev/null)" = "$liblsl" ] || ln -sfn "$liblsl" "$root/.liblsl/liblsl.so"
