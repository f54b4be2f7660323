#!/usr/bin/env bash
# Builds Fuzz/ (libFuzzer + AddressSanitizer, release) and runs each fuzz target for FUZZ_SECONDS seconds.
# Usage: scripts/fuzz.sh [TARGET...]              (default: every target)
#        scripts/fuzz.sh --campaign [TARGET...]   (default: every target not yet done, in Fuzz/campaign.tsv's order)
# Env:   FUZZ_SECONDS (default 600), FUZZ_RUNS (default unlimited: a target also stops after that many executions),
#        FUZZ_TIMEOUT (default 10: seconds after which one input counts as a hang; libFuzzer measures wall time, so
#        raise it when the campaign runs at low priority beside other work), FUZZ_SCRATCH (default Fuzz/.build),
#        SWIFT (default swift).
# Each target starts from its committed seeds (Fuzz/Corpus/<target>) plus what earlier runs on this machine found
# (FUZZ_SCRATCH/corpus/<target>, not committed); crashes land in FUZZ_SCRATCH/crashes/<target>/ and make the script
# exit non-zero. Prints one line per target: executions, edges covered (libFuzzer's `cov:`), corpus size, crashes.
#
# --campaign: the long campaign, split over sessions. A target is done after CAMPAIGN_RUNS (default 10 000 000)
# executions or CAMPAIGN_SECONDS (default 1200) seconds of fuzzing, cumulative over the rows Fuzz/campaign.tsv already
# has for it; each run gets what is left of both, and at most what is left of FUZZ_BUDGET (seconds for this whole
# invocation, default unlimited; a target is not started with less than 60 s left). After each run the committed
# corpus is minimised (`-merge=1` of Fuzz/Corpus/<target> and the working corpus; seed-* and regression-* files keep
# their names) into Fuzz/Corpus/<target>, and one row is appended to Fuzz/campaign.tsv with the cumulative figures.
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

# SwiftPM keeps this nested package's build plan when only the path dependency changed its modules or files (a module
# or a file added to the root failed the next fuzz build with "no such module" or "cannot find type"): plan again
# when the root manifest or the list of its source files is not what the plan was made from.
layout=$( (cat Package.swift; find Sources -name '*.swift' | LC_ALL=C sort) | cksum)
if [ "$(cat "$scratch/root-layout" 2>/dev/null)" != "$layout" ]; then rm -f "$scratch/release.yaml"; fi

started=$(date +%s)
"$swift" build -c release --package-path Fuzz --scratch-path "$scratch" --product axon-fuzz \
    --toolset "$scratch/lld-toolset.json" -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library \
    || { echo "fuzz: build failed" >&2; exit 1; }
echo "fuzz: build $(( $(date +%s) - started )) s"
printf '%s\n' "$layout" > "$scratch/root-layout"
binary="$scratch/release/axon-fuzz"

campaign=0
if [ "${1:-}" = --campaign ]; then campaign=1; shift; fi
table=${CAMPAIGN_TABLE:-Fuzz/campaign.tsv}
campaign_runs=${CAMPAIGN_RUNS:-10000000}
campaign_seconds=${CAMPAIGN_SECONDS:-1200}
budget=${FUZZ_BUDGET:-0}

# The last row Fuzz/campaign.tsv has for target $1, or nothing (columns: see the table's header).
last_row() { [ -f "$table" ] && awk -F'\t' -v t="$1" '$2 == t { row = $0 } END { if (row != "") print row }' "$table"; }

# Runs target $1 for at most $2 seconds and $3 executions (-1: no limit) and sets executions, rate, edges, found,
# elapsed and status from its log.
run_target() {
    local target=$1
    corpus="$scratch/corpus/$target" crashes="$scratch/crashes/$target" log="$scratch/logs/$target.log"
    mkdir -p "$corpus" "$crashes" "$(dirname "$log")"
    local before target_started
    before=$(ls "$crashes" | wc -l)
    target_started=$(date +%s)
    # -timeout: an input that takes that long is a hang and counts as a crash; -rss_limit_mb: ASan's shadow plus
    # the decoders' buffers stay far below it, so only a runaway allocation reaches it.
    AXON_FUZZ_TARGET="$target" ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no "$binary" -max_total_time="$2" -runs="$3" -timeout="$timeout" \
        -rss_limit_mb=3072 -print_final_stats=1 -artifact_prefix="$crashes/" "$corpus" "Fuzz/Corpus/$target" \
        > "$log" 2>&1
    status=$?
    elapsed=$(( $(date +%s) - target_started ))
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    edges=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    found=$(( $(ls "$crashes" | wc -l) - before ))
}

# After run_target: a crash, hang or broken invariant fails the script (after the other targets) and is shown.
report_failure() {
    if [ "$status" -ne 0 ] || [ "$found" -ne 0 ]; then
        failed=1
        echo "fuzz: $target stopped with status $status; log $log, inputs in $crashes:" >&2
        grep -E 'ERROR: |Fatal error|invariant broken|SUMMARY' "$log" | head -5 >&2
    fi
}

# Minimises Fuzz/Corpus/<target $1> and the working corpus into Fuzz/Corpus/<target>: seed-* and regression-* files
# are kept under their names, libFuzzer adds (named by their SHA-1) the other inputs that reach further.
merge_target() {
    local target=$1 merged="$scratch/merged/$1"
    rm -rf "$merged" && mkdir -p "$merged"
    find "Fuzz/Corpus/$target" -maxdepth 1 -type f \( -name 'seed-*' -o -name 'regression-*' \) -exec cp {} "$merged/" \;
    AXON_FUZZ_TARGET="$target" ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no "$binary" -merge=1 -timeout="$timeout" \
        -rss_limit_mb=3072 -artifact_prefix="$scratch/crashes/$target/" "$merged" "Fuzz/Corpus/$target" "$scratch/corpus/$target" \
        > "$scratch/logs/$target.merge.log" 2>&1 || { echo "fuzz: merge of $target failed; log $scratch/logs/$target.merge.log" >&2; return 1; }
    rm -rf "Fuzz/Corpus/$target" && mv "$merged" "Fuzz/Corpus/$target"
}

if [ $# -gt 0 ]; then
    targets=("$@")
elif [ $campaign -eq 1 ] && [ -f "$table" ]; then
    targets=($(awk -F'\t' 'NR > 1 && !seen[$2]++ { print $2 }' "$table"))
    for t in $(ls Fuzz/Corpus); do [[ " ${targets[*]} " == *" $t "* ]] || targets+=("$t"); done
else
    targets=($(ls Fuzz/Corpus))
fi
failed=0
if [ $campaign -eq 1 ]; then
    [ -f "$table" ] || printf 'date\ttarget\tsession\texecutions\tseconds\ttotal_executions\ttotal_seconds\tedges\tcorpus_before_merge\tcorpus_after_merge\tfindings\ttotal_findings\n' > "$table"
    printf '%-12s %8s %12s %8s %10s %8s %8s %8s %s\n' target session total_execs total_s exec/s edges before after findings
    for target in "${targets[@]}"; do
        IFS=$'\t' read -r _ _ sessions _ _ total_execs total_secs _ _ _ _ total_found <<< "$(last_row "$target")"
        sessions=${sessions:-0} total_execs=${total_execs:-0} total_secs=${total_secs:-0} total_found=${total_found:-0}
        if [ "$total_execs" -ge "$campaign_runs" ] || [ "$total_secs" -ge "$campaign_seconds" ]; then
            echo "fuzz: $target done ($total_execs executions, $total_secs s)"; continue
        fi
        seconds=$(( campaign_seconds - total_secs ))
        if [ "$budget" -gt 0 ]; then
            left=$(( budget - ($(date +%s) - started) ))
            [ "$left" -lt 60 ] && { echo "fuzz: budget used up before $target"; break; }
            [ "$left" -lt "$seconds" ] && seconds=$left
        fi
        run_target "$target" "$seconds" $(( campaign_runs - total_execs ))
        before_merge=$(( $(ls "$corpus" | wc -l) + $(ls "Fuzz/Corpus/$target" | wc -l) ))
        merge_target "$target" || failed=1
        sessions=$(( sessions + 1 )) total_execs=$(( total_execs + ${executions:-0} ))
        total_secs=$(( total_secs + elapsed )) total_found=$(( total_found + found ))
        after_merge=$(ls "Fuzz/Corpus/$target" | wc -l)
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$target" "$sessions" \
            "${executions:-0}" "$elapsed" "$total_execs" "$total_secs" "${edges:-?}" "$before_merge" "$after_merge" \
            "$found" "$total_found" >> "$table"
        printf '%-12s %8s %12s %8s %10s %8s %8s %8s %s\n' "$target" "$sessions" "$total_execs" "$total_secs" \
            "${rate:-?}" "${edges:-?}" "$before_merge" "$after_merge" "$found"
        report_failure
    done
else
    printf '%-12s %12s %10s %8s %8s %8s %s\n' target executions exec/s seconds edges corpus crashes
    for target in "${targets[@]}"; do
        run_target "$target" "$seconds" "$runs"
        printf '%-12s %12s %10s %8s %8s %8s %s\n' "$target" "${executions:-?}" "${rate:-?}" \
            "$elapsed" "${edges:-?}" "$(ls "$corpus" | wc -l)" "$found"
        report_failure
    done
fi
echo "fuzz: $(( $(date +%s) - started )) s in all"
exit $failed
