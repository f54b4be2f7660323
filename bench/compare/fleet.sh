#!/usr/bin/env bash
# The fleet's capacity for make compare: one `axon fleet worker` against a real 3-node JetStream cluster on loopback
# (free ports, data in a temporary folder; every process this script starts is stopped when it ends, even on
# failure), fed by `axon fleet simulate`. Writes RESULTS/fleet.json.
#
#   fleet.sh AXON RESULTS        (or the AXON and RESULTS environment variables)
#
# 1. Capacity: FLEET_FAST_DEVICES simulated 4-channel 250 Hz headsets × FLEET_FAST_SECONDS of data published with
#    --fast while the worker processes them; devices per worker core = device-seconds processed ÷ CPU-seconds of the
#    worker process over that time (utime + stime from /proc/PID/stat).
# 2. Real time: FLEET_PACED_DEVICES headsets × FLEET_PACED_SECONDS paced in real time; the worst lag (a result's
#    storage time minus its raw batch's) over every device, and whether the simulator kept pace.
# The simulator, the three servers and the worker share the machine's cores. About 2 minutes with the defaults.
set -euo pipefail

axon="${1:-${AXON:-}}"
results="${2:-${RESULTS:-}}"
fast_devices="${FLEET_FAST_DEVICES:-200}"
fast_seconds="${FLEET_FAST_SECONDS:-60}"
paced_devices="${FLEET_PACED_DEVICES:-300}"
paced_seconds="${FLEET_PACED_SECONDS:-30}"
server=/usr/sbin/nats-server

say() { echo "fleet: $*" >&2; }
[ -n "$axon" ] && [ -x "$axon" ] || { say "usage: fleet.sh AXON RESULTS (axon executable not found: '$axon')"; exit 2; }
[ -n "$results" ] || { say "usage: fleet.sh AXON RESULTS"; exit 2; }
[ -x "$server" ] || { say "$server is missing: run scripts/install-deps.sh"; exit 2; }
mkdir -p "$results"

work="$(mktemp -d "${TMPDIR:-/tmp}/axon-fleet-bench.XXXXXX")"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -CONT "$pid" 2>/dev/null || true; kill -KILL "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- Cluster: three servers on free loopback ports ---------------------------------------------------------------
read -r -a ports <<< "$(python3 -c '
import socket
held = [socket.socket() for _ in range(6)]
for s in held: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in held))
for s in held: s.close()')"
routes="nats-route://127.0.0.1:${ports[3]}, nats-route://127.0.0.1:${ports[4]}, nats-route://127.0.0.1:${ports[5]}"
urls=()
for index in 0 1 2; do
    cat > "$work/n$index.conf" <<EOF
server_name: n$index
listen: 127.0.0.1:${ports[$index]}
jetstream { store_dir: "$work/n$index", max_memory_store: 64MB }
cluster { name: axon-bench, listen: 127.0.0.1:${ports[$((index + 3))]}, routes: [$routes] }
EOF
    "$server" -c "$work/n$index.conf" > "$work/n$index.log" 2>&1 &
    pids+=("$!")
    urls+=("nats://127.0.0.1:${ports[$index]}")
done
for index in 0 1 2; do
    for _ in $(seq 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/${ports[$index]}") 2>/dev/null && break
        sleep 0.1
    done
done
say "cluster on ports ${ports[*]:0:3}"

cpu_seconds() {  # utime + stime of a process, seconds
    awk -v tick="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); print ($12 + $13) / tick }' "/proc/$1/stat"
}
worker_field() {  # worker_field EXPRESSION: of the worker's statistics `w` in axon fleet status (0 until it reports)
    "$axon" fleet status --json --nats "${urls[@]}" 2>/dev/null \
        | python3 -c "import json,sys; ws=json.load(sys.stdin)['workers']; w=ws[0] if ws else None; print($1 if w else 0)" \
            2>/dev/null || echo 0
}
wait_for() {  # wait_for SECONDS COMMAND…: until COMMAND succeeds, or fail after SECONDS
    local deadline=$((SECONDS + $1))
    shift
    until "$@"; do
        [ "$SECONDS" -lt "$deadline" ] || return 1
        sleep 1
    done
}

# --- Worker --------------------------------------------------------------------------------------------------------
"$axon" fleet worker --id bench-worker --report 0 --nats "${urls[@]}" > "$work/worker.log" 2>&1 &
worker="$!"
pids+=("$worker")
holds_all() { kill -0 "$worker" 2>/dev/null && [ "$(worker_field "len(w['partitions'])")" -eq 16 ]; }
wait_for 90 holds_all || { say "the worker did not take the 16 partitions:"; tail -5 "$work/worker.log" >&2; exit 1; }
say "worker $worker holds every partition"

# Runs the simulator, then waits until the worker has processed every frame it published. Writes WORK/NAME.phase:
# "frames simulator_seconds worker_cpu_seconds wall_seconds processed_frames".
phase() {  # phase NAME DEVICES SECONDS FIRST [--fast]
    local name=$1 devices=$2 seconds=$3 first=$4
    shift 4
    local before_frames before_cpu start
    before_frames="$(worker_field "w['frames']")"
    before_cpu="$(cpu_seconds "$worker")"
    start="$(date +%s.%N)"
    "$axon" fleet simulate --devices "$devices" --first "$first" --seconds "$seconds" --threads 8 --json \
        --spool "$work/spool-$name" "$@" --nats "${urls[@]}" > "$work/$name.json"
    local published simulated
    read -r published simulated < <(python3 -c "
import json; s = json.load(open('$work/$name.json'))
print(sum(d['frames'] for d in s['devices']), s['seconds'])")
    local target=$((before_frames + published))
    caught_up() { [ "$(worker_field "w['frames']")" -ge "$target" ]; }
    wait_for 180 caught_up || say "$name: the worker did not process all $published frames in time"
    local after_cpu processed
    after_cpu="$(cpu_seconds "$worker")"
    processed=$(( $(worker_field "w['frames']") - before_frames ))
    echo "$published $simulated $(awk "BEGIN { print $after_cpu - $before_cpu, $(date +%s.%N) - $start }") $processed" \
        > "$work/$name.phase"
}

say "capacity: $fast_devices devices × $fast_seconds s, --fast"
phase fast "$fast_devices" "$fast_seconds" 0 --fast
read -r fast_frames fast_sim fast_cpu fast_wall fast_processed < "$work/fast.phase"
say "real time: $paced_devices devices × $paced_seconds s, paced"
phase paced "$paced_devices" "$paced_seconds" "$fast_devices"
read -r paced_frames paced_sim paced_cpu paced_wall paced_processed < "$work/paced.phase"
"$axon" fleet results --json --nats "${urls[@]}" > "$work/results.json"
"$axon" fleet status --json --nats "${urls[@]}" > "$work/status.json"

python3 - "$work" "$results/fleet.json" <<EOF
import json, statistics, sys
work, out = sys.argv[1], sys.argv[2]
results = json.load(open(f"{work}/results.json"))
worker = json.load(open(f"{work}/status.json"))["workers"][0]
paced_ids = {d["device"] for d in json.load(open(f"{work}/paced.json"))["devices"]}
fast_ids = {d["device"] for d in json.load(open(f"{work}/fast.json"))["devices"]}
def summary(ids):
    devices = [d for d in results["devices"] if d["device"] in ids]
    return {
        "devicesWithResults": len(devices),
        "spectra": sum(d["spectra"] for d in devices),
        "zones": sum(d["zones"] for d in devices),
        "missing": sum(len(d["missingSpectra"]) + len(d["missingZones"]) for d in devices),
        "duplicated": sum(len(d["duplicateSpectra"]) + len(d["duplicateZones"]) for d in devices),
        "maxLagSeconds": max((d["maxLag"] for d in devices), default=None),
        "medianLagSeconds": statistics.median([d["medianLag"] for d in devices]) if devices else None,
    }
def phase(devices, seconds, frames, processed, simulator, cpu, wall, ids):
    # Frames the worker handled again after a partition changed hands count as its overhead, not as more data.
    device_seconds = min(processed, frames) / 250
    record = {
        "devices": devices, "seconds": seconds, "publishedFrames": frames, "processedFrames": processed,
        "deviceSeconds": device_seconds, "simulatorWallSeconds": simulator, "workerCPUSeconds": cpu,
        "wallSeconds": wall, "devicesPerWorkerCore": device_seconds / cpu if cpu > 0 else None,
    }
    record.update(summary(ids))
    return record
fast = phase($fast_devices, $fast_seconds, $fast_frames, $fast_processed, $fast_sim, $fast_cpu, $fast_wall, fast_ids)
paced = phase($paced_devices, $paced_seconds, $paced_frames, $paced_processed, $paced_sim, $paced_cpu, $paced_wall,
              paced_ids)
# The simulator finishes with a last batch and its acknowledgements: kept pace when it ended within 2 s of the data.
paced["simulatorKeptPace"] = paced["simulatorWallSeconds"] <= $paced_seconds + 2
paced["lagUnder2s"] = paced["maxLagSeconds"] is not None and paced["maxLagSeconds"] < 2
json.dump({
    "cluster": "3 nats-server $("$server" --version | sed 's/nats-server: //') on loopback, replicas 3",
    "cores": $(nproc),
    "fast": fast, "paced": paced,
    "worker": {k: worker[k] for k in ["batches", "frames", "spectra", "zones", "duplicateResults", "publishRetries",
                                       "skippedBatches", "takeovers", "lostPartitions", "resubscriptions",
                                       "rejected", "maxLag", "checkpoints", "cpuSeconds"]},
}, open(out, "w"), indent=2)
print(json.dumps({"devicesPerWorkerCore": fast["devicesPerWorkerCore"], "pacedDevices": paced["devices"],
                  "pacedMaxLagSeconds": paced["maxLagSeconds"], "simulatorKeptPace": paced["simulatorKeptPace"]}))
EOF
say "wrote $results/fleet.json"
