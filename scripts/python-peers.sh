#!/usr/bin/env bash
# Creates .venv-peers (python3 -m venv) with the real peers the interop tests talk to: the EDF readers pyedflib
# and MNE, which check the files we write, and elm327-emulator (module `elm`), the ELM327 OBD-II dongle the OBD
# tests connect to. Idempotent and quiet: installs only what is missing, prints one line when it installs.
# The Swift interop tests run only when .venv-peers/bin/python exists.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv-peers"
python="$venv/bin/python"

# python3 and python3-venv come from scripts/install-deps.sh (make deps).
[ -x "$python" ] || python3 -m venv "$venv"

# module:package pairs (the import name and the PyPI name differ for the emulator).
missing=()
for pair in pyedflib:pyedflib mne:mne elm:elm327-emulator; do
    "$python" -c "import ${pair%%:*}" 2>/dev/null || missing+=("${pair#*:}")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "python-peers: installing ${missing[*]} into .venv-peers"
"$python" -m pip install --quiet --disable-pip-version-check --upgrade pip
"$python" -m pip install --quiet --disable-pip-version-check "${missing[@]}"
