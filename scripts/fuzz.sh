#!/usr/bin/env bash
# Builds Fuzz/ (libFuzzer + AddressSanitizer, release) and runs each fuzz target for FUZZ_SECONDS seconds.
# Usage: scripts/fuzz.sh [TARGET...]   (default: every target)
# Env:   FUZZ_SECONDS (default 600), FUZZ_RUNS (default unlimited: a target also stops after that many executions),
#        FUZZ_TIMEOUT (default 10: seconds after which one input counts as a hang; libFuzzer measures wall time, so
#        raise it when the campaign runs at low priority beside other work), FUZZ_SCRATCH (default Fuzz/.build),
#        SWIFT (default swift).
# Each target starts from its committed seeds (Fuzz/Corpus/<target>) plus what earlier runs on this machine found
# (FUZZ_SCRATCH/corpus/<target>, not committed); crashes land in FUZZ_SCRATCH/crashes/<target>/ and make the script
# exit non-zero. Prints one line per target: executions, edges covered (libFuzzer's `cov:`), corpus size, crashes.
set -uo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)
seconds=${FUZZ_SECONDS:-600}
runs=${FUZZ_RUNS:--1}
timeout=${FUZZ_TIMEOUT:-10}
scratch=${FUZZ_SCRATCH:-Fuzz/.build}
swift=${SWIFT:-swift}
case "$scratch" in /*) ;; *) scratch="$root/$scratch" ;; esac

# The gold linker stops with an internal error on the sanitizer runtime's symbols: link with the toolchain's lld.
lld="$(dirname "$(readlink -f "$(command -v "$swift")")")/ld.lld"
[ -x "$lld" ] || { echo "fuzz: no ld.lld beside $swift (the Swift toolchain ships one)" >&2; exit 1; }
mkdir -p "$scratch"
printf '{"schemaVersion": "1.0", "linker": {"path": "%s"}}\n' "$lld" > "$scratch/lld-toolset.json"

started=$(date +%s)
"$swift" build -c release --package-path Fuzz --scratch-path "$scratch" --product axon-fuzz \
    --toolset "$scratch/lld-toolset.json" -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library \
    || { echo "fuzz: build failed" >&2; exit 1; }
echo "fuzz: build $(( $(date +%s) - started )) s"
binary="$scratch/release/axon-fuzz"

if [ $# -gt 0 ]; then targets=("$@"); else targets=($(ls Fuzz/Corpus)); fi
failed=0
printf '%-12s %12s %10s %8s %8s %8s %s\n' target executions exec/s seconds edges corpus crashes
for target in "${targets[@]}"; do
    corpus="$scratch/corpus/$target" crashes="$scratch/crashes/$target" log="$scratch/logs/$target.log"
    mkdir -p "$corpus" "$crashes" "$(dirname "$log")"
    before=$(ls "$crashes" | wc -l)
    target_started=$(date +%s)
    # -timeout: an input that takes that long is a hang and counts as a crash; -rss_limit_mb: ASan's shadow plus
    # the decoders' buffers stay far below it, so only a runaway allocation reaches it.
    AXON_FUZZ_TARGET="$target" ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no "$binary" -max_total_time="$seconds" -runs="$runs" -timeout="$timeout" \
        -rss_limit_mb=3072 -print_final_stats=1 -artifact_prefix="$crashes/" "$corpus" "Fuzz/Corpus/$target" \
        > "$log" 2>&1
    status=$?
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    edges=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    found=$(( $(ls "$crashes" | wc -l) - before ))
    printf '%-12s %12s %10s %8s %8s %8s %s\n' "$target" "${executions:-?}" "${rate:-?}" \
        "$(( $(date +%s) - target_started ))" "${edges:-?}" \
        "$(ls "$corpus" | wc -l)" "$found"
    if [ "$status" -ne 0 ] || [ "$found" -ne 0 ]; then
        failed=1
        echo "fuzz: $target stopped with status $status; log $log, inputs in $crashes:" >&2
        grep -E 'ERROR: |Fatal error|invariant broken|SUMMARY' "$log" | head -5 >&2
    fi
done
echo "fuzz: $(( $(date +%s) - started )) s in all"
exit $failed
