#!/usr/bin/env bash
# Runs a command against the mock bluetoothd on a private bus, without a Bluetooth radio:
#   scripts/bluez-mock/run.sh axon scan
# The command sees DBUS_SYSTEM_BUS_ADDRESS pointing at the private bus, where the mock owns org.bluez
# with the demo devices (a Brainiac headset and a heart-rate band). Bus and mock are killed and the
# temporary directory removed however the command ends. If this script itself is SIGKILLed, bus, mock
# and the command still die with it (PR_SET_PDEATHSIG); only the temporary directory is left.
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
cmd_pid=""

cleanup() {
    # Ignore further signals while cleaning up: timeout(1) signals both this script and its process
    # group, so a second TERM arrives here and would otherwise end the script before rm.
    trap - EXIT
    trap '' INT TERM
    [ -n "$cmd_pid" ] && kill "$cmd_pid" 2>/dev/null || true
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
# The daemon's stderr goes to a file: run as root it logs a harmless fd-limit warning on every start.
"$python" "$here/bus.py" --dir "$dir" >"$dir/bus.out" 2>"$dir/bus.err" &
bus_pid=$!
exec 3<"$dir/bus.out"
rm "$dir/bus.out"
if ! read -r -t 10 address <&3; then
    echo "run.sh: the bus did not start" >&2
    cat "$dir/bus.err" >&2
    exit 1
fi

"$python" "$here/mock_bluetoothd.py" --bus "$address" --preset demo >"$dir/mock.out" &
mock_pid=$!
exec 4<"$dir/mock.out"
rm "$dir/mock.out"
read -r -t 10 ready <&4 || true
if [ "${ready:-}" != "READY" ]; then
    echo "run.sh: the mock bluetoothd did not start" >&2
    exit 1
fi

export DBUS_SYSTEM_BUS_ADDRESS="$address"
status=0
# The command, too, gets PR_SET_PDEATHSIG, so that a SIGKILLed run.sh leaves no process behind.
# It runs in the background with our stdin (explicitly, since a background job would get /dev/null)
# because bash runs a trap only after the foreground command ends, while `wait` returns at once.
"$python" -c 'import ctypes, os, signal, sys
ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
signal.pthread_sigmask(signal.SIG_SETMASK, [])  # a mask inherited from a test runner thread would hide SIGINT
os.execvp(sys.argv[1], sys.argv[1:])' "$@" <&0 &
cmd_pid=$!
wait "$cmd_pid" || status=$?
cmd_pid=""
exit "$status"
