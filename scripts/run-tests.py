#!/usr/bin/env python3
"""Runs the Swift test suites as several test processes at once, longest first.

Most of the suite waits: for peers (the mock bluetoothd, nats-server, pylsl, Chromium, pty simulators) and for
real-time streams. Swift Testing's own parallelism cannot overlap that waiting on this machine: tests that block a
thread (a semaphore, a sleep, a blocking read) hold one of the cooperative pool's threads, and the pool is as wide
as the machine has cores (two here). Separate processes are not bound by that, so this runner starts up to --jobs
test processes, each running whole suites one test at a time (`--no-parallel`, as every suite was written for), and
hands the next suite to the first process slot that frees up, the longest suites first.

Suites that share something a second process would disturb are named in Tests/test-groups.txt:
  group NAME REGEX…   the suites matching any REGEX run one after another in one process (a fixed port, a
                      machine-wide discovery protocol);
  alone REGEX…        the suites matching run with no other test process running, after the rest (timing measurements).
Expected durations come from Tests/test-times.tsv (`--write-times` rewrites it from a run); unknown suites count as
DEFAULT_SECONDS. Prints one line per suite as it ends (wall and CPU seconds of its process, the peers it waited for
included), the whole output of every failed suite, the slowest and the busiest processes, and a closing line
`N passed, N failed`. Exit 0 only if every process passed and ran at least one test.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GROUPS_FILE = os.path.join(ROOT, "Tests", "test-groups.txt")
TIMES_FILE = os.path.join(ROOT, "Tests", "test-times.tsv")
DEFAULT_SECONDS = 5.0

# Swift Testing's closing line for one process, e.g.
# "✔ Test run with 12 tests in 3 suites passed after 4.2 seconds." or "✘ Test run with 12 tests … failed after … with 2 issues."
RUN_LINE = re.compile(r"Test run with (\d+) tests? (?:in \d+ suites? )?(passed|failed) after ([0-9.]+) seconds")
FAILED_TEST = re.compile(r"^✘ Test (?!case |run with )(.+?) (?:with \d+ test cases? )?failed after", re.M)
SUITE_LINE = re.compile(r"Suite .*?(?:\(aka '(\w+)'\)|(\w+)) (?:passed|failed) after ([0-9.]+) seconds")


ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_binary(scratch):
    """The test bundle `swift build --build-tests` links. It is run directly: `swift test` holds a lock on the build
    folder for as long as its tests run, so two of them never overlap."""
    path = os.path.join(scratch or os.path.join(ROOT, ".build"), "debug", "AxonPackageTests.xctest")
    if not os.access(path, os.X_OK):
        sys.exit(f"run-tests: no test bundle at {path}: run `swift build --build-tests` first")
    return path


def list_tests(binary):
    """The test identifiers the bundle lists (`Module.Suite/test()`), grouped by top-level suite."""
    command = [binary, "--testing-library", "swift-testing", "--list-tests"]
    output = subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    suites = {}
    for line in output.splitlines():
        line = line.strip()
        if "/" not in line or " " in line:
            continue
        suite = line.split("/", 1)[0]
        suites.setdefault(suite, []).append(line)
    return suites


def read_groups():
    groups, alone = {}, []
    if not os.path.exists(GROUPS_FILE):
        return groups, alone
    with open(GROUPS_FILE) as file:
        for raw in file:
            words = raw.split("#", 1)[0].split()
            if not words:
                continue
            if words[0] == "group" and len(words) >= 3:
                groups[words[1]] = [re.compile(w) for w in words[2:]]
            elif words[0] == "alone" and len(words) >= 2:
                alone += [re.compile(w) for w in words[1:]]
            else:
                sys.exit(f"run-tests: {GROUPS_FILE}: cannot read line: {raw.strip()}")
    return groups, alone


def read_times():
    times = {}
    if os.path.exists(TIMES_FILE):
        with open(TIMES_FILE) as file:
            for line in file:
                if line.startswith("#") or "\t" not in line:
                    continue
                suite, seconds = line.rstrip("\n").split("\t")[:2]
                times[suite] = float(seconds)
    return times


class Unit:
    """Suites that one test process runs, one after another."""

    def __init__(self, name, suites, expected, alone=False):
        self.name, self.suites, self.expected, self.alone = name, suites, expected, alone
        self.passed = self.failed = 0
        self.seconds = 0.0
        self.cpu_seconds = 0.0
        self.status = None
        self.output = ""
        self.suite_seconds = {}

    def command(self, binary):
        filters = []
        for suite in self.suites:
            filters += ["--filter", "^" + re.escape(suite) + "[/.]"]
        # --verbose: suite lines carry the type's name beside a display name, for the timings of a group's suites.
        return [binary, "--testing-library", "swift-testing", "--no-parallel", "--verbose"] + filters

    def run(self, binary):
        started = time.monotonic()
        with tempfile.TemporaryFile(mode="w+") as log:
            process = subprocess.Popen(self.command(binary), cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                       stdin=subprocess.DEVNULL, env=dict(os.environ, NO_COLOR="1"))
            # wait4 gives this process's own CPU time (with the peers it started and waited for), where
            # getrusage(RUSAGE_CHILDREN) would mix in the other test processes running beside it.
            _, status, usage = os.wait4(process.pid, 0)
            process.returncode = os.waitstatus_to_exitcode(status)
            log.seek(0)
            self.output = ANSI.sub("", log.read())
        self.seconds = time.monotonic() - started
        self.cpu_seconds = usage.ru_utime + usage.ru_stime
        self.status = process.returncode
        ran = 0
        for match in RUN_LINE.finditer(self.output):
            ran += int(match.group(1))
        failed_tests = set(FAILED_TEST.findall(self.output))
        self.failed = len(failed_tests)
        if self.status != 0 and self.failed == 0:
            self.failed = 1  # a crash or a build problem: count the process as one failure
        self.passed = max(ran - self.failed, 0)
        for match in SUITE_LINE.finditer(self.output):
            self.suite_seconds[match.group(1) or match.group(2)] = float(match.group(3))
        return ran


def plan(suites, groups, alone_patterns, times):
    units, taken = [], set()
    for name, patterns in groups.items():
        members = sorted(s for s in suites if any(p.search(s) for p in patterns))
        if members:
            units.append(Unit(name, members, sum(times.get(s, DEFAULT_SECONDS) for s in members)))
            taken.update(members)
    alone = []
    for suite in sorted(suites):
        if suite in taken:
            continue
        unit = Unit(suite, [suite], times.get(suite, DEFAULT_SECONDS))
        if any(p.search(suite) for p in alone_patterns):
            unit.alone = True
            alone.append(unit)
        else:
            units.append(unit)
    units.sort(key=lambda u: -u.expected)
    return units, alone


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=int(os.environ.get("AXON_TEST_JOBS", "4")),
                        help="test processes at once (default 4, or AXON_TEST_JOBS)")
    parser.add_argument("--scratch-path", default=None, help="the build folder (default SwiftPM's .build)")
    parser.add_argument("--write-times", action="store_true", help="rewrite Tests/test-times.tsv from this run")
    parser.add_argument("--only", action="append", default=[], help="only suites matching this regex (repeatable)")
    args = parser.parse_args()

    binary = test_binary(args.scratch_path)
    suites = list_tests(binary)
    if args.only:
        patterns = [re.compile(p) for p in args.only]
        suites = {s: t for s, t in suites.items() if any(p.search(s) for p in patterns)}
    if not suites:
        sys.exit("run-tests: no test suites found")
    groups, alone_patterns = read_groups()
    times = read_times()
    units, alone = plan(suites, groups, alone_patterns, times)
    print(f"run-tests: {sum(len(t) for t in suites.values())} tests in {len(suites)} suites as {len(units)} "
          f"units on {args.jobs} processes, then {len(alone)} alone", flush=True)

    started = time.monotonic()
    lock = threading.Lock()
    queue = list(units)
    done = []

    def report(unit):
        mark = "✔" if unit.status == 0 and unit.failed == 0 else "✘"
        print(f"{mark} {unit.name}: {unit.passed} passed, {unit.failed} failed in {unit.seconds:.1f} s, "
              f"CPU {unit.cpu_seconds:.1f} s (at {time.monotonic() - started:.0f} s)", flush=True)

    def worker():
        while True:
            with lock:
                if not queue:
                    return
                unit = queue.pop(0)
            unit.run(binary)
            with lock:
                done.append(unit)
                report(unit)

    threads = [threading.Thread(target=worker) for _ in range(max(1, args.jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for unit in alone:
        unit.run(binary)
        done.append(unit)
        report(unit)
    wall = time.monotonic() - started

    failed_units = [u for u in done if u.status != 0 or u.failed]
    for unit in failed_units:
        print(f"\n===== output of {unit.name} (exit {unit.status}) =====")
        print(unit.output)
    slowest = sorted(done, key=lambda u: -u.seconds)[:10]
    print("\nslowest: " + ", ".join(f"{u.name} {u.seconds:.0f} s" for u in slowest))
    # What the tests take from the checks that run beside them in `make test` (docs/testing.md).
    busiest = sorted(done, key=lambda u: -u.cpu_seconds)[:10]
    print(f"CPU: {sum(u.cpu_seconds for u in done):.0f} s in all; most: "
          + ", ".join(f"{u.name} {u.cpu_seconds:.0f} s" for u in busiest))
    if args.write_times:
        measured = dict(times)
        for unit in done:
            if len(unit.suites) == 1:
                measured[unit.suites[0]] = round(unit.seconds, 1)
            else:
                # A group's process time, shared out by the suites' own times where the output gave them.
                for suite in unit.suites:
                    short = suite.split(".", 1)[-1]
                    measured[suite] = round(unit.suite_seconds.get(short, unit.seconds / len(unit.suites)), 1)
        with open(TIMES_FILE, "w") as file:
            file.write("# suite\tseconds: one suite's test process on its own, from scripts/run-tests.py "
                       "--write-times; only orders the runs\n")
            for suite in sorted(measured):
                file.write(f"{suite}\t{measured[suite]}\n")
    passed = sum(u.passed for u in done)
    failed = sum(u.failed for u in done)
    print(f"\nrun-tests: {len(done)} processes in {wall:.0f} s")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
