#!/usr/bin/env bash
# Creates .venv-peers (python3 -m venv) with the real EDF readers the interop tests check our files against:
# pyedflib and MNE. Idempotent and quiet: installs only what is missing, prints one line when it installs.
# The Swift interop tests run the checker only when .venv-peers/bin/python exists.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv-peers"
python="$venv/bin/python"

# python3 and python3-venv come from scripts/install-deps.sh (make deps).
[ -x "$python" ] || python3 -m venv "$venv"

missing=()
for module in pyedflib mne; do
    "$python" -c "import $module" 2>/dev/null || missing+=("$module")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "python-peers: installing ${missing[*]} into .venv-peers"
"$python" -m pip install --quiet --disable-pip-version-check --upgrade pip
"$python" -m pip install --quiet --disable-pip-version-check "${missing[@]}"
