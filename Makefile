# The two front-door commands are `make demo` and `make test`; the rest are their parts.
SWIFT ?= swift
TSAN_SCRATCH ?= .build-tsan

.PHONY: demo install python test unit-tests-then-docs checks docs-check python-tests deps test-deps peers build build-tests unit-tests run-unit-tests tsan-build tsan-tests bench bench-check fuzz fuzz-smoke fuzz-campaign compare soak clean

## Installs the system packages the build needs (not the tests'), builds, and runs the main job on a built-in default.
demo: deps
	$(SWIFT) build -c release --product axon
	./.build/release/axon demo

## Puts `axon` on the PATH under PREFIX (default /usr/local; `make install PREFIX=$$HOME/.local` needs no root): the
## executable in bin, the live view's page and the sample recording in share/axon (found from any working directory),
## a man page per command in share/man/man1 (ArgumentParser's manual generator) and bash, zsh and fish completions.
PREFIX ?= /usr/local
install: deps
	$(SWIFT) build -c release --product axon
	$(SWIFT) package generate-manual --multi-page
	./scripts/install.sh "$(PREFIX)"

## Axon from Python (docs/python.md): `pip install ./python` into .venv-python (it builds libAxonC.so in release mode and
## bundles it), then the first channel's report of a shipped recording from that environment.
python: deps
	[ -x .venv-python/bin/python ] || python3 -m venv .venv-python
	.venv-python/bin/python -m pip install --quiet --disable-pip-version-check ./python
	cd /tmp && $(CURDIR)/.venv-python/bin/python -c 'import axon_eeg as axon; r = axon.analyze("$(CURDIR)/datasets/physionet-eegmmidb/S001R02.edf"); c = r["channels"][0]; print(axon.library_path); print(c["label"], [(b["low"], b["high"], round(b["median"], 2)) for b in c["bands"]])'

## Installs what the tests need and runs every test: unit tests, the Python package's tests, the docs check, the
## lock-free code under ThreadSanitizer, the allocation gate (the real-time paths must allocate nothing; checked by the
## benchmarks' malloc counter), and a few seconds of coverage-guided fuzzing per decoder and reader. The unit tests mostly wait (for peers
## and real-time streams), so the other stages' builds run beside them at the lowest CPU priority (`checks`); see
## docs/testing.md.
test: test-deps
	$(MAKE) --no-print-directory -j2 peers build-tests
	$(MAKE) --no-print-directory -j2 --output-sync=target unit-tests-then-docs checks

## The debug build with the tests; `make test` runs it beside `peers` (pip's downloads wait on the network).
build-tests: deps
	$(SWIFT) build --build-tests

## The unit tests, the Python tests, then the docs check: one branch of `make test`, beside `checks`. The docs check
## is here, not in `checks`: without it this branch ended about 15 minutes before the checks, and the check, mostly on
## one core, now shares the machine with the checks' single-core stretches (the fuzz runs, the malloc gate); with it,
## this branch still ends about 6 minutes first.
unit-tests-then-docs:
	$(MAKE) --no-print-directory run-unit-tests
	$(MAKE) --no-print-directory docs-check

## The stages besides the unit tests, one after another at the lowest CPU priority: the fuzz smoke and the malloc gate
## first, ThreadSanitizer last (its threaded tests stream in real time and run best once the unit tests
## are done). Not two at a time: that saved about 4 of 38 minutes, and in both fresh-clone runs that tried it a
## real-time test beside two builds fell behind its pace (docs/testing.md).
checks:
	nice -n 19 $(MAKE) --no-print-directory -j1 fuzz-smoke bench-check tsan-tests FUZZ_TIMEOUT=60

## Every library module's DocC catalog built against its symbol graph, every warning an error (a ``Symbol`` link in a
## catalog or a /// comment that names nothing): docs that cannot go stale silently. Reuses the debug build.
docs-check:
	./scripts/check-docs.sh --scratch-path .build

## The Python package's tests (python/tests, pytest in .venv-peers) over the debug build's libAxonC.so and `axon`:
## every public call, the reports against `axon analyze --json`, files against pyedflib and MNE, bad input, 10,000
## open/close cycles, the GIL released during long calls, and docs/python.md's walkthrough.
python-tests:
	.venv-peers/bin/python -m pytest -q -p no:cacheprovider python/tests

deps:
	./scripts/install-deps.sh

## The build's packages and those the tests talk to (Chromium, nats-server, gpsd, dbus-daemon, python3-venv, …).
test-deps:
	./scripts/install-deps.sh --test

## The real EDF readers the interop tests check our files with (pyedflib, MNE) in .venv-peers; idempotent.
peers: test-deps
	./scripts/python-peers.sh

build: deps
	$(SWIFT) build

# Every Swift test suite, several test processes at once (scripts/run-tests.py, AXON_TEST_JOBS of them, default 4),
# each running whole suites one test at a time: the tests mostly wait for real peers (dbus-daemon, the mock bluetoothd,
# elm327-emulator, gpsd, nats-server, pylsl, Chromium) and real-time streams, and separate processes overlap that
# waiting where one process cannot (a test blocking a thread holds one of only two cooperative-pool threads here).
# Suites that share a machine-wide resource are kept together or alone by Tests/test-groups.txt.
unit-tests: peers build-tests
	$(MAKE) --no-print-directory run-unit-tests

# The Python package's tests follow the Swift ones on the same branch: the unit tests end while the checks' builds
# still run, so they fit in that slack.
run-unit-tests:
	./scripts/run-tests.py
	$(MAKE) --no-print-directory python-tests

# TSan only sees races on the ring in release builds (debug copies go through uninstrumented value witnesses).
# The simulated Brainiac headset is included: its state crosses threads through a mutex and an event handler.
# So is the EDF sink (annotations cross from submitting threads to the consumer through its inbox) and the EDF
# reader (EDFlib is not thread-safe, so concurrent reads go through one process-wide lock). And the Bluetooth client:
# its D-Bus owner thread takes work from any thread and hands notifications to the stream's ring.
# The scale session and simulator: commands on a task, frames on the simulator's delivery queue, met in a locked
# inbox (an NSLock: TSan does not see Synchronization.Mutex on Linux).
# The simulated Cyton and the Cyton source: a pty simulator thread, the source thread and the consumer share counters.
# The in-process simulated Muse (its thread, the source's commands, the auxiliary stream) and the Ganglion's impedance
# commands (asked from a test task, written by the source thread): about 8 s.
# AXON_TEST_TARGETS: the build compiles only these test targets and what they import (Package.swift's last lines).
# AXON_TEST_SOURCES: of those targets, only the files the filtered suites are in and the helpers they use are
# compiled; AXON_TEST_TARGETS, the targets these files are in, follows from the list.
TSAN_TEST_FILES = \
	AxonStreamsTests/RingTests.swift \
	AxonStreamsTests/RingWakeupTests.swift \
	AxonStreamsTests/PipelineTests.swift \
	AxonStreamsTests/TestSupport.swift \
	AxonBrainiacTests/SimulatedBrainiacHeadsetTests.swift \
	AxonBrainiacTests/EEGHeadsetTests.swift \
	AxonBrainiacTests/TestSupport.swift \
	AxonEEGTests/SessionTests.swift \
	AxonEEGTests/EEGTestSignals.swift \
	AxonRecordingTests/EDFFileReaderTests.swift \
	AxonRecordingTests/EDFSinkThreadTests.swift \
	AxonRecordingTests/EDFPeers.swift \
	AxonRecordingTests/EDFTestFiles.swift \
	AxonRecordingTests/TestData.swift \
	AxonBluetoothTests/BluetoothCentralTests.swift \
	AxonBluetoothTests/BrainiacOverBluetoothTests.swift \
	AxonBluetoothTests/HeadsetRun.swift \
	AxonScalesTests/MemoryTransferTests.swift \
	AxonScalesTests/ScaleInboxTests.swift \
	AxonScalesTests/HS5UserTests.swift \
	AxonScalesTests/TestSupport.swift \
	AxonScalesTests/ScaleTestRig.swift \
	AxonScalesTests/WeightMeasurementVectors.swift \
	AxonOpenBCITests/CytonEngineTests.swift \
	AxonOpenBCITests/CytonRoundTripTests.swift \
	AxonOpenBCITests/GanglionOverBluetoothTests.swift \
	AxonMuseTests/SimulatedMuseTests.swift \
	AxonMuseTests/CollectingSink+Recording.swift
empty :=
space := $(empty) $(empty)
comma := ,
TSAN_TEST_SOURCES = $(subst $(space),$(comma),$(strip $(TSAN_TEST_FILES)))
TSAN_TEST_TARGETS = $(subst $(space),$(comma),$(sort $(foreach file,$(TSAN_TEST_FILES),$(firstword $(subst /, ,$(file))))))
# -enable-testing: `swift test` builds with testable imports by itself; `swift build --build-tests` needs to be told.
TSAN_FLAGS = -c release --sanitize=thread --disable-default-traits -Xswiftc -enable-testing --scratch-path $(TSAN_SCRATCH)
tsan-build:
	AXON_TEST_TARGETS=$(TSAN_TEST_TARGETS) AXON_TEST_SOURCES=$(TSAN_TEST_SOURCES) $(SWIFT) build --build-tests $(TSAN_FLAGS)
tsan-tests: tsan-build
	AXON_TEST_TARGETS=$(TSAN_TEST_TARGETS) AXON_TEST_SOURCES=$(TSAN_TEST_SOURCES) $(SWIFT) test --skip-build $(TSAN_FLAGS) --skip 'LiveView|Fleet' --filter 'Ring|Pipeline|SimulatedBrainiacHeadset|SessionTests|EEGHeadsetTests|EDFSinkThreadTests|EDFFileReaderTests|BluetoothCentralTests|malformedNotifications|failingConnects|MemoryTransferTests|LostRecordTests|ScaleInboxTests|HS5UserTests|CytonRoundTrip|CytonEngine|roundTripWithAuxiliaryStreams|withoutKeepAlivesItHalts|impedanceCheck'

## Runs the benchmark suite (nested package, release build).
bench: deps
	cd Benchmarks && $(SWIFT) package benchmark

## The malloc gate: fails if any benchmark's steady state allocates (static thresholds in Benchmarks/Thresholds/). Each
## benchmark runs 0.2 s or 50 iterations here (AXON_BENCH_GATE=1): the gate reads allocation counts, not timings.
bench-check: deps
	cd Benchmarks && AXON_BENCH_GATE=1 $(SWIFT) package benchmark thresholds check

## Coverage-guided fuzzing (libFuzzer + AddressSanitizer, nested package Fuzz/) of every decoder and reader,
## FUZZ_SECONDS each (default 600) or until FUZZ_RUNS executions if that comes first (default: no limit); prints
## executions, edges and crashes per target. See docs/fuzzing.md.
FUZZ_SECONDS ?= 600
FUZZ_RUNS ?=
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RUNS=$(FUZZ_RUNS) SWIFT=$(SWIFT) ./scripts/fuzz.sh

## The long campaign, split over sessions: each target not yet done gets what it lacks of 10 M executions or 20 min
## (cumulative in Fuzz/campaign.tsv), at the lowest CPU priority and one at a time; then its corpus is minimised into
## Fuzz/Corpus/<target> and a row appended to Fuzz/campaign.tsv. FUZZ_BUDGET: seconds for this session (default: no
## limit). FUZZ_TARGETS: only these, in this order. Commit Fuzz/Corpus and Fuzz/campaign.tsv afterwards.
## See docs/fuzzing.md.
FUZZ_BUDGET ?= 0
FUZZ_TARGETS ?=
fuzz-campaign: deps
	FUZZ_BUDGET=$(FUZZ_BUDGET) FUZZ_TIMEOUT=60 SWIFT=$(SWIFT) nice -n 19 ./scripts/fuzz.sh --campaign $(FUZZ_TARGETS)

## The same build and every target for 4 s: fails on any crash or broken invariant (the runs take about 80 s; the build
## from nothing 8 min and 800 CPU-seconds on a quiet 2-vCPU machine, at 19 targets and 10 library products).
FUZZ_TIMEOUT ?= 10
fuzz-smoke: deps
	FUZZ_SECONDS=4 FUZZ_TIMEOUT=$(FUZZ_TIMEOUT) SWIFT=$(SWIFT) ./scripts/fuzz.sh

## Axon against C + FFTW, BrainFlow, NumPy/SciPy, boost and moodycamel queues in one run; rewrites BENCHMARKS.md and
## bench/compare/device-seconds.png. Installs its own needs (apt packages, bench/compare/.venv). Not part of `test`.
compare: deps
	./bench/compare/run.sh

## 24 hours of device time (a headset losing packets and its link) at 150× (9.6 min) through ring, engine, EDF+, the
## event store, the live view's hub and an LSL outlet read back by an inlet: fails if memory, descriptors or threads
## grow, a lost sample is not in a gap record, a frame misses the inlet, or the EDF+ file does not read back whole
## with pyedflib. `make test` runs the same for half an hour of device time at 100×. See docs/testing.md.
soak: peers
	AXON_SOAK_HOURS=24 AXON_SOAK_SPEED=150 $(SWIFT) test --filter SoakTests

clean:
	rm -rf .build $(TSAN_SCRATCH) Benchmarks/.build Fuzz/.build bench/compare/build
