#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Axon builds and tests against, skipping those already present.
# Uses sudo when not run as root. Idempotent: a second run installs nothing.
set -euo pipefail

# python3-venv: scripts/python-peers.sh builds the EDF readers the interop tests check against (pyedflib, MNE).
# libsqlite3-dev: the event store's SQLite (GRDB). libedf-dev: EDFlib, the reference EDF/BDF reader.
# dbus-daemon python3-dbus python3-gi: scripts/bluez-mock, the private bus and mock bluetoothd the BLE tests
# run against (these kernels have no Bluetooth).
# gpsd, gpsd-clients: gpsfake replays an NMEA log through a real gpsd for the OBD events' position header tests.
# chromium, fonts-dejavu-core: the live view's tests drive headless Chromium (scripts/view-browser.py) and read its
# screenshots; the font gives the page's text the same metrics on every machine.
# libnats-dev: the NATS C client under AxonFleet (CNATS). nats-server: the 3-node JetStream cluster the fleet tests start.
# openssl: the Ed25519 key pairs of the fleet's NKey authentication test.
packages=(pkg-config libfftw3-dev liblapacke-dev libdbus-1-dev libsqlite3-dev libedf-dev python3 python3-venv
          dbus-daemon python3-dbus python3-gi gpsd gpsd-clients chromium fonts-dejavu-core libnats-dev nats-server
          openssl)

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
