#!/usr/bin/env bash
# Builds every library module's DocC catalog (Sources/<Module>/Docs.docc) against the module's symbol graph with
# warnings as errors, so documentation cannot go stale silently: a ``Symbol`` link in a catalog or in a /// comment
# that names nothing (a type renamed or removed), or that is ambiguous, fails the check with the file and line.
#   scripts/check-docs.sh [--scratch-path DIR]     (default .build, the build `make test` has just made)
# The symbol graphs come from `swift package dump-symbol-graph`, which reuses that debug build, so the check costs
# the graphs' extraction and one `docc convert` per module. Needs docc (in the Swift toolchain).
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build
if [ "${1:-}" = "--scratch-path" ] && [ -n "${2:-}" ]; then scratch=$2; fi
docc=$(command -v docc || true)
if [ -z "$docc" ]; then docc="$(dirname "$(readlink -f "$(command -v swift)")")/docc"; fi
[ -x "$docc" ] || { echo "check-docs: docc not found next to swift" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/axon-docs.XXXXXX")
trap 'rm -rf "$work"' EXIT
started=$(date +%s)

# Public symbols only: what the catalogs document. The graphs land in the scratch path's symbolgraph folder.
swift package --scratch-path "$scratch" dump-symbol-graph --skip-synthesized-members >"$work/dump.log" 2>&1 \
    || { cat "$work/dump.log" >&2; exit 1; }
graphs=$(sed -n 's/^Files written to //p' "$work/dump.log" | tail -1)
[ -d "$graphs" ] || { cat "$work/dump.log" >&2; echo "check-docs: no symbol graphs" >&2; exit 1; }

# Each module, in dependency order, with the graphs of the modules it depends on beside its own, so that a link to
# another module's symbol (``AxonStreams/GapRecord``) resolves.
swift package --scratch-path "$scratch" dump-package >"$work/package.json"
order=$(python3 - "$work/package.json" <<'PYTHON'
import json, os, sys
targets = {t["name"]: t for t in json.load(open(sys.argv[1]))["targets"]}
documented = {name for name in targets if os.path.isdir(f"Sources/{name}/Docs.docc")}
def direct(name):
    for dependency in targets[name]["dependencies"]:
        kind, value = next(iter(dependency.items()))
        if kind in ("byName", "target") and value[0] in documented:
            yield value[0]
def closure(name, seen=None):
    seen = set() if seen is None else seen
    for dependency in direct(name):
        if dependency not in seen:
            seen.add(dependency)
            closure(dependency, seen)
    return seen
done = []
def visit(name):
    if name in done: return
    for dependency in sorted(direct(name)): visit(dependency)
    done.append(name)
for name in sorted(documented): visit(name)
for name in done: print(name, *sorted(closure(name)))
PYTHON
)

# Dependencies' graphs without their doc comments (each module's comments are checked in its own run only).
mkdir -p "$work/bare"
python3 - "$graphs" "$work/bare" $(cut -d' ' -f1 <<<"$order") <<'PYTHON'
import glob, json, os, re, sys
for path in glob.glob(os.path.join(sys.argv[1], "*.symbols.json")):
    if re.split(r"[@.]", os.path.basename(path))[0] not in sys.argv[3:]:
        continue
    graph = json.load(open(path))
    for symbol in graph["symbols"]:
        symbol.pop("docComment", None)
    json.dump(graph, open(os.path.join(sys.argv[2], os.path.basename(path)), "w"))
PYTHON

failed=0
checked=0
while read -r module dependencies; do
    mkdir -p "$work/graphs/$module"
    for graph in "$graphs/$module.symbols.json" "$graphs/$module@"*.symbols.json; do
        [ -e "$graph" ] && cp "$graph" "$work/graphs/$module/"
    done
    for dependency in $dependencies; do
        for graph in "$work/bare/$dependency.symbols.json" "$work/bare/$dependency@"*.symbols.json; do
            [ -e "$graph" ] && cp "$graph" "$work/graphs/$module/"
        done
    done
    # Every warning is an error, except those listed in scripts/docs-known-warnings.txt (comments in files under
    # another change, to be fixed there). Parameter lists are not checked: this check is about links that rot.
    status=0
    "$docc" convert "Sources/$module/Docs.docc" --additional-symbol-graph-dir "$work/graphs/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "axon.$module" \
        --disable-parameters-and-returns-validation \
        --output-path "$work/$module.doccarchive" >"$work/$module.log" 2>&1 || status=$?
    if python3 - "$module" "$work/$module.log" scripts/docs-known-warnings.txt "$status" <<'PYTHON'
import os, re, sys
module, log, known_path, status = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
known = set()
if os.path.exists(known_path):
    for line in open(known_path):
        line = line.rstrip("\n")
        if line and not line.startswith("#"):
            known.add(line)
lines = open(log).read().split("\n")
unexpected, tolerated = [], 0
for index, line in enumerate(lines):
    if not re.match(r"(warning|error): ", line):
        continue
    where = ""
    for following in lines[index + 1:index + 4]:
        match = re.match(r"\s*--> (.*?):(\d+)", following)
        if match:
            where = os.path.normpath(os.path.join("Sources", module, "Docs.docc", match.group(1)))
            break
    if f"{where}\t{line}" in known:
        tolerated += 1
        continue
    block = [line]
    for following in lines[index + 1:]:
        if re.match(r"(warning|error): |Error: |Finished|$", following) and len(block) > 1:
            break
        block.append(following)
    unexpected.append("\n".join(block))
if tolerated:
    print(f"check-docs: {module}: {tolerated} known warnings (scripts/docs-known-warnings.txt)")
if unexpected or status != 0:
    print(f"check-docs: {module}: {len(unexpected)} warnings", file=sys.stderr)
    print("\n".join(unexpected) or open(log).read(), file=sys.stderr)
    sys.exit(1)
PYTHON
    then
        checked=$((checked + 1))
    else
        failed=$((failed + 1))
    fi
done <<<"$order"

seconds=$(($(date +%s) - started))
echo "check-docs: $checked modules clean, $failed with warnings, in ${seconds} s"
[ "$failed" -eq 0 ] && [ "$checked" -gt 0 ]
