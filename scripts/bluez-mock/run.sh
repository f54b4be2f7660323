#!/usr/bin/env bash
# Runs a command against the mock bluetoothd on a private bus, without a Bluetooth radio:
#   scripts/bluez-mock/run.sh axon scan
# The command sees DBUS_SYSTEM_BUS_ADDRESS pointing at the private bus, where the mock owns org.bluez
# with the demo devices (a Brainiac headset and a heart-rate band). Bus and mock are killed and the
# temporary directory removed however the command ends; both also die with this script if it is
# SIGKILLed (they set PR_SET_PDEATHSIG).
set -euo pipefail

if [ $# -eq 0 ]; then
    echo "usage: $0 COMMAND [ARGS...]" >&2
    exit 2
fi

here=$(cd "$(dirname "$0")" && pwd)
python=/usr/bin/python3   # Debian's interpreter: it has python3-dbus and python3-gi
dir=$(mktemp -d "${TMPDIR:-/tmp}/axon-bluez-mock.XXXXXX")
bus_pid=""
mock_pid=""

cleanup() {
    trap - EXIT INT TERM
    [ -n "$mock_pid" ] && kill "$mock_pid" 2>/dev/null || true
    [ -n "$bus_pid" ] && kill "$bus_pid" 2>/dev/null || true
    [ -n "$mock_pid" ] && wait "$mock_pid" 2>/dev/null || true
    [ -n "$bus_pid" ] && wait "$bus_pid" 2>/dev/null || true
    rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The daemon prints its address as its first line; read it through a fifo so the daemon stays our child.
mkfifo "$dir/bus.out" "$dir/mock.out"
"$python" "$here/bus.py" --dir "$dir" >"$dir/bus.out" &
bus_pid=$!
exec 3<"$dir/bus.out"
read -r -t 10 address <&3 || { echo "run.sh: the bus did not start" >&2; exit 1; }

"$python" "$here/mock_bluetoothd.py" --bus "$address" --preset demo >"$dir/mock.out" &
mock_pid=$!
exec 4<"$dir/mock.out"
read -r -t 10 ready <&4 || true
if [ "${ready:-}" != "READY" ]; then
    echo "run.sh: the mock bluetoothd did not start" >&2
    exit 1
fi

export DBUS_SYSTEM_BUS_ADDRESS="$address"
status=0
"$@" || status=$?
exit "$status"
