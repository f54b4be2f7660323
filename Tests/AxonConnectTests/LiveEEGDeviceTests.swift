import AxonBluetooth
import AxonConnect
import AxonDevices
import AxonOpenBCI
import AxonRecording
import AxonStreams
import BlueZTestSupport
import Foundation
import StreamTestSupport
import Testing

/// Opening device SOURCEs in the library, as the commands do: a Cyton on a simulator's pty, a Ganglion on the mock
/// bluetoothd, one that is not there, and SOURCEs that are no devices. What the opening does arrives as events.
@Suite(.serialized)
struct LiveEEGDeviceTests {
    static let recordingPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("datasets/openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt").path

    /// Streams `device` into a collecting sink until `frames` frames have arrived.
    static func collect(_ device: LiveEEGDevice, frames: Int) throws -> CollectingSink.Contents {
        let sink = CollectingSink()
        let pipeline = StreamPipeline(
            source: device.source, sinks: [sink], configuration: .init(ringCapacity: 16_384, timeline: device.timeline))
        try pipeline.start()
        defer { pipeline.stop() }
        waitUntil(seconds: 60) { sink.snapshot.values.count >= frames }
        return sink.snapshot
    }

    @Test("cyton:PATH opens the board on its port, reports its answer, and streams the picked channels' values")
    func cytonOnItsPort() async throws {
        let recording = try RecordingReader.read(path: Self.recordingPath)
        let simulator = try SimulatedCyton(configuration: .init(values: recording.values, channelCount: 8, speed: 10))
        try simulator.start()
        defer { simulator.stop() }
        var events: [DeviceOpeningEvent] = []
        let device = try await LiveEEGDevice.open(
            .cyton(port: simulator.path), options: .init(channels: ["EXG0", "EXG2"])
        ) { events.append($0) }
        defer { device.close() }

        #expect(events.count == 1)
        guard case .cytonAnswered(let path, let banner, let channels, let rate, let daisy)? = events.first else {
            Issue.record("expected the board's answer, got \(events)")
            return
        }
        #expect(path == simulator.path && !banner.isEmpty && channels == 8 && rate == 250 && !daisy)
        #expect(device.title == "OpenBCI Cyton on \(simulator.path)")
        #expect(device.source.descriptor.channels.map(\.label) == ["EXG0", "EXG2"])
        #expect(device.source.descriptor.nominalRate == 250)

        let contents = try Self.collect(device, frames: 1_000)
        #expect(contents.gaps.isEmpty)
        var worst = 0.0
        for (frame, values) in contents.values.prefix(1_000).enumerated() {
            worst = max(worst, abs(values[0] - recording.value(frame: frame, channel: 0)))
            worst = max(worst, abs(values[1] - recording.value(frame: frame, channel: 2)))
        }
        #expect(worst <= 0.03, "the recording's values within the 24-bit quantisation, worst \(worst) µV")
        #expect(device.summary().contains("Cyton: "))
    }

    @Test("a Cyton port that does not exist: the port's error kept as a value, nothing reported")
    func cytonThatIsNotThere() async throws {
        var events: [DeviceOpeningEvent] = []
        do {
            _ = try await LiveEEGDevice.open(.cyton(port: "/nonexistent/ttyUSB9")) { events.append($0) }
            Issue.record("a port that does not exist opened")
        } catch {
            guard case .cyton(let path, _) = error else {
                Issue.record("expected a Cyton error, got \(error)")
                return
            }
            #expect(path == "/nonexistent/ttyUSB9")
            #expect(error.description.hasPrefix("Cyton on /nonexistent/ttyUSB9: "))
        }
        #expect(events.isEmpty)
    }

    @Test("files, the simulator, test sequences and the Brainiac headset are no devices it opens")
    func sourcesThatAreNoLiveDevices() async throws {
        let others: [SourceSpecifier] = [.file(path: "x.edf"), .simulator, .testSequence(frequency: 10), .brainiac(selector: "")]
        for specifier in others {
            #expect(!LiveEEGDevice.handles(specifier))
            do {
                _ = try await LiveEEGDevice.open(specifier)
                Issue.record("\(specifier) opened")
            } catch {
                guard case .notALiveDevice(let given) = error else {
                    Issue.record("expected notALiveDevice, got \(error)")
                    continue
                }
                #expect(given == specifier)
            }
        }
        #expect([SourceSpecifier.cyton(port: "p"), .muse(selector: "m"), .ganglion(selector: "g"), .lsl(query: "EEG")]
            .allSatisfy(LiveEEGDevice.handles))
    }
}

/// The Bluetooth half on the mock bluetoothd: a Ganglion found and streamed, and one that is not there.
@Suite(.enabled(if: BlueZTestBed.available, "needs dbus-daemon, python3-dbus and python3-gi (make test-deps)"), .serialized)
struct LiveEEGDeviceOverBluetoothTests {
    static let address = "C0:FF:EE:00:00:30"

    static func bed() throws -> BlueZTestBed {
        try BlueZTestBed(devices: ["ganglion,\(address),Ganglion-0030,recording=\(LiveEEGDeviceTests.recordingPath)"])
    }

    @Test("ganglion:NAME is found through BlueZ and streams its 4 channels at 200 Hz without a lost packet")
    func ganglionFoundAndStreamed() async throws {
        let bed = try Self.bed()
        defer { bed.stop() }
        var events: [DeviceOpeningEvent] = []
        let device = try await LiveEEGDevice.open(
            .ganglion(selector: "Ganglion-0030"), options: .init(bus: .address(bed.address), searchSeconds: 10)
        ) { events.append($0) }
        defer { device.close() }
        #expect(device.title == "OpenBCI Ganglion Ganglion-0030 through BlueZ")
        #expect(device.source.descriptor.channels.count == 4 && device.source.descriptor.nominalRate == 200)
        #expect(events.allSatisfy { if case .searching = $0 { true } else { false } })

        let contents = try LiveEEGDeviceTests.collect(device, frames: 400)
        #expect(contents.values.count >= 400)
        #expect(contents.gaps.isEmpty)
        #expect(device.summary().contains(" 0 lost"), "\(device.summary())")
    }

    @Test("a Ganglion that is not there: one searching event, then notFound listing what was seen and what it is")
    func ganglionThatIsNotThere() async throws {
        let bed = try Self.bed()
        defer { bed.stop() }
        var events: [DeviceOpeningEvent] = []
        do {
            _ = try await LiveEEGDevice.open(
                .ganglion(selector: "Nobody"), options: .init(bus: .address(bed.address), searchSeconds: 3)
            ) { events.append($0) }
            Issue.record("a Ganglion that is not there opened")
        } catch {
            guard case .notFound(let kind, let selector, let seconds, let seen) = error else {
                Issue.record("expected notFound, got \(error)")
                return
            }
            #expect(kind == "OpenBCI Ganglion" && selector == "Nobody" && seconds == 3)
            #expect(seen.map(\.address).contains(Self.address))
            #expect(error.description.contains("Ganglion-0030 (C0:FF:EE:00:00:30, OpenBCI Ganglion)"))
        }
        #expect(events == [.searching(kind: "OpenBCI Ganglion", selector: "Nobody", seconds: 3)])
    }
}
