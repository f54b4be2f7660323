#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Axon builds against (`make demo`, `make install`) and, with --test, those its
# tests talk to as well (`make test`), skipping those already present. Uses sudo when not run as root. Idempotent:
# a second run installs nothing.
set -euo pipefail

# To build: FFTW, LAPACKE, libdbus (BlueZ over D-Bus), SQLite (the event store), EDFlib (the reference
# EDF/BDF reader) and the NATS C client under AxonFleet (CNATS).
packages=(pkg-config libfftw3-dev liblapacke-dev libdbus-1-dev libsqlite3-dev libedf-dev libnats-dev)

# To test, besides:
# python3-venv: scripts/python-peers.sh builds the peers the interop tests check against (pyedflib, MNE, pylsl, …).
# dbus-daemon python3-dbus python3-gi: scripts/bluez-mock, the private bus and mock bluetoothd the BLE tests
# run against (these kernels have no Bluetooth).
# gpsd, gpsd-clients: gpsfake replays an NMEA log through a real gpsd for the OBD events' position header tests.
# chromium, fonts-dejavu-core: the live view's tests drive headless Chromium (scripts/view-browser.py) and read its
# screenshots; the font gives the page's text the same metrics on every machine. librsvg2-bin: rsvg-convert, which
# `axon plot --png` runs (PlotTests check its PNG).
# nats-server: the 3-node JetStream cluster the fleet tests start. openssl: the Ed25519 key pairs of the fleet's NKey
# authentication test.
if [ "${1:-}" = "--test" ]; then
    packages+=(python3 python3-venv dbus-daemon python3-dbus python3-gi gpsd gpsd-clients chromium fonts-dejavu-core
               librsvg2-bin nats-server openssl)
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
