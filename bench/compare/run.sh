#!/usr/bin/env bash
# make compare: measures Axon against its peers in one run on this machine and writes BENCHMARKS.md and its chart.
#
#   (a) C + FFTW doing the same hop (the floor)        hop_fftw.c
#   (b) BrainFlow's DataFilter from Python              peers.py brainflow
#   (b') Axon's engine from Python (axon_eeg)           peers.py axon-python
#   (c) NumPy and SciPy vectorised over a recording     peers.py numpy|scipy
#   (d) boost::lockfree::spsc_queue and moodycamel::ReaderWriterQueue for the ring   ring_queues.cpp
#
# Everyone uses axon bench's signal (same formula and seed) and the same workloads: the Brainiac headset
# (4 channels, 250 Hz), then 8, 32 and 64 channels and 500 Hz. Installs what it needs, idempotently: Debian
# packages (apt-get, as root or through sudo) and a virtual environment in bench/compare/.venv (brainflow, numpy,
# scipy, matplotlib from PyPI). Takes about five minutes once axon is built; run it on an otherwise idle machine.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$here/build"
results="$build/results"
venv="$here/.venv"
python="$venv/bin/python"

say() { echo "compare: $*" >&2; }

# --- What it needs -------------------------------------------------------------------------------------------------
packages=(gcc g++ libfftw3-dev libboost-dev libreaderwriterqueue-dev python3-venv)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

[ -x "$python" ] || python3 -m venv "$venv"
modules=()
for module in brainflow numpy scipy matplotlib; do
    "$python" -c "import $module" 2>/dev/null || modules+=("$module")
done
if [ ${#modules[@]} -gt 0 ]; then
    say "installing ${modules[*]} into bench/compare/.venv"
    "$python" -m pip install --quiet --disable-pip-version-check --upgrade pip
    "$python" -m pip install --quiet --disable-pip-version-check "${modules[@]}"
fi

# --- Build ---------------------------------------------------------------------------------------------------------
mkdir -p "$build"
rm -rf "$results"
mkdir -p "$results"
say "building the C and C++ peers (-O2), axon and libAxonC.so (release)"
gcc -O2 -Wall -o "$build/hop_fftw" "$here/hop_fftw.c" -lfftw3 -lm
g++ -O2 -std=c++17 -Wall -pthread -o "$build/ring_queues" "$here/ring_queues.cpp"
(cd "$root" && swift build -c release --product axon >&2 && swift build -c release --product AxonC >&2)
axon="$root/.build/release/axon"

# --- Machine -------------------------------------------------------------------------------------------------------
{
    echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "cpu=$(lscpu | sed -n 's/^Model name:[[:space:]]*//p' | head -1)"
    echo "cores=$(nproc)"
    echo "memory=$(free -g | awk '/^Mem:/ {print $2 " GiB"}')"
    echo "kernel=$(uname -sr)"
    echo "os=$(. /etc/os-release && echo "$PRETTY_NAME")"
    echo "swift=$(swift --version 2>&1 | head -1)"
    echo "gcc=$(gcc --version | head -1)"
    echo "python=$("$python" --version 2>&1)"
    echo "fftw=$(dpkg-query -W -f='${Version}' libfftw3-dev)"
    echo "boost=$(dpkg-query -W -f='${Version}' libboost-dev)"
    echo "readerwriterqueue=$(dpkg-query -W -f='${Version}' libreaderwriterqueue-dev)"
    "$python" -c 'import importlib.metadata as m; print("\n".join(f"{p}={m.version(p)}" for p in ["brainflow", "numpy", "scipy", "matplotlib"]))'
    echo "load_before=$(cut -d' ' -f1-3 /proc/loadavg)"
} > "$results/machine.txt"

# --- Measure -------------------------------------------------------------------------------------------------------
# Workloads as "channels rate"; the first is the headline, the others show how cost grows with the work. The
# headline is measured in five rounds, every system once per round in turn, so that a burst of load from other
# processes hits them alike; the report takes each system's median over the rounds and shows their range.
measure() {  # channels rate round axon-seconds
    local channels=$1 rate=$2 round=$3 budget=$4
    local tag="${channels}ch-${rate}hz"
    local suffix="$tag-r$round"
    say "$tag round $round: axon bench (${budget} s)"
    "$axon" bench --json --channels "$channels" --rate "$rate" --seconds "$budget" 2>/dev/null > "$results/axon-$suffix.json"
    say "$tag round $round: C + FFTW"
    "$build/hop_fftw" "$channels" "$rate" 3600 5 > "$results/c-$suffix.json"
    # NumPy/SciPy hold the whole recording and its spectra in memory: at most 16 M samples (an hour of 4 channels).
    local vectorised_seconds=$(( 16000000 / (channels * rate) ))
    [ "$vectorised_seconds" -gt 3600 ] && vectorised_seconds=3600
    for system in numpy scipy; do
        say "$tag round $round: $system over ${vectorised_seconds} s of data"
        "$python" "$here/peers.py" "$system" --channels "$channels" --rate "$rate" --seconds "$vectorised_seconds" \
            --repetitions 5 > "$results/$system-$suffix.json"
    done
    # Axon's engine from Python: the axon_eeg package over the release libAxonC.so, a minute per push.
    say "$tag round $round: Axon from Python over ${vectorised_seconds} s of data"
    AXON_LIBRARY="$root/.build/release/libAxonC.so" PYTHONPATH="$root/python/src" \
        "$python" "$here/peers.py" axon-python --channels "$channels" --rate "$rate" --seconds "$vectorised_seconds" \
        --repetitions 3 > "$results/axon-python-$suffix.json"
    # BrainFlow goes one window at a time from Python: about a quarter of a second per repetition at any scale.
    local brainflow_seconds=$(( 900 * 4 * 250 / (channels * rate) ))
    say "$tag round $round: BrainFlow over ${brainflow_seconds} s of data"
    "$python" "$here/peers.py" brainflow --channels "$channels" --rate "$rate" --seconds "$brainflow_seconds" \
        --repetitions 3 > "$results/brainflow-$suffix.json"
    if [ "$rate" = 250 ]; then
        say "$tag round $round: boost and moodycamel queues"
        "$build/ring_queues" "$channels" 2000000 3 > "$results/rings-$suffix.jsonl"
    fi
}

for round in 1 2 3 4 5; do measure 4 250 "$round" 10; done
for workload in "8 250" "32 250" "64 250" "4 500"; do
    read -r channels rate <<< "$workload"
    measure "$channels" "$rate" 1 12
done
echo "load_after=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$results/machine.txt"

# --- Fleet ---------------------------------------------------------------------------------------------------------
# One `axon fleet worker` on a 3-node JetStream cluster of its own (about 2 minutes): BENCHMARKS.md's Fleet section.
say "fleet: a worker on a 3-node JetStream cluster (bench/compare/fleet.sh)"
"$here/fleet.sh" "$axon" "$results" || say "fleet.sh failed (exit $?): BENCHMARKS.md will have no Fleet section"

# --- Report --------------------------------------------------------------------------------------------------------
"$python" "$here/report.py" --results "$results" --markdown "$root/BENCHMARKS.md" --chart "$here/device-seconds.png"
say "wrote BENCHMARKS.md and bench/compare/device-seconds.png"
