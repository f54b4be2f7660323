import AxonDevices
import AxonStreams

#if canImport(Glibc)
    import Glibc
#endif

/// A Cyton (or Cyton + Daisy) on a pseudo-terminal: it answers the board's text exchange and streams given frames
/// — a real recording's values in µV — as 33-byte packets, paced at the board's rate times `speed`. Everything a
/// ``CytonBoard`` learns comes from the bytes on the pty.
///
///     let recording = try RecordingReader.read(path: "OpenBCI_GUI-v6-blinks-jawClench-alpha.txt")
///     let cyton = try SimulatedCyton(configuration: .init(values: recording.values, channelCount: 8, speed: 10))
///     try cyton.start()
///     let board = CytonBoard(path: cyton.path)      // /dev/pts/N
///
/// What it answers: `v` → the firmware v3 banner (with the Daisy line when 16 channels) ending in `$$$`, and the
/// channel gains back to 24; `b` → packets start (sample numbers from 0; with a Daisy, odd = board channels 1–8,
/// even = Daisy channels 9–16, two packets per frame at 250 packets/s); `s` → packets stop; `d` → default channel
/// settings; `x…X` channel settings → the gain used to encode that channel from then on, answered
/// `Success: Channel set for N$$$` (or `Failure: …$$$` for settings it cannot parse). Values are encoded as
/// round(µV / (µV per count at the channel's gain)), clamped to 24 bits, so a decoder recovers them within half a
/// count (0.011 µV at gain 24). Every 10th board packet carries the accelerometer reading in its aux bytes
/// (footer `0xC0`), as the firmware does. ``SimulatedCytonFault``s are injected at packet indices.
///
/// Lead-off: `z CHANNEL P N Z` (``CytonLeadOff``) is answered `Success: Lead off set for N$$$` when not streaming
/// (silently while streaming, as the firmware), and while P or N is on, the channel carries the ADS1299's
/// 31.25 Hz drive across the configured ``Configuration/electrodeOhms`` of that channel: a sine of
/// ``CytonLeadOff/amplitudeMicrovolts(electrodeOhms:)`` added to the recording's values.
///
/// Threading contract: `start` and `stop` from one controlling thread; the simulator runs on its own thread.
/// Counters and the commands received are readable from any thread.
public final class SimulatedCyton: @unchecked Sendable {
    // Sendable invariant: the pty descriptors and the streaming state are used only by the simulator's thread once
    // started (`start` hands them over through thread creation); `shared` is behind ThreadLocked.

    /// What to stream and how.
    public struct Configuration: Sendable {
        /// Frame-major values in µV, `channelCount` per frame.
        public var values: [Double]
        /// 8 (a Cyton) or 16 (a Cyton + Daisy).
        public var channelCount: Int
        /// Pacing multiplier (1 = the board's real rate).
        public var speed: Double
        /// Faults to inject.
        public var faults: [SimulatedCytonFault]
        /// The accelerometer reading in g sent every 10th board packet.
        public var acceleration: (x: Double, y: Double, z: Double)
        /// Whether to start over at the end of `values` (else the stream stops).
        public var loops: Bool
        /// Each channel's electrode impedance, Ω, that the lead-off drive shows (channels beyond the array: no
        /// drive signal).
        public var electrodeOhms: [Double]

        /// A configuration; `values.count` must be a multiple of `channelCount` (8 or 16).
        public init(
            values: [Double], channelCount: Int = 8, speed: Double = 1, faults: [SimulatedCytonFault] = [],
            acceleration: (x: Double, y: Double, z: Double) = (0.04, 0.42, 0.238), loops: Bool = false,
            electrodeOhms: [Double] = []
        ) {
            precondition(channelCount == 8 || channelCount == 16, "a Cyton has 8 channels, 16 with a Daisy")
            precondition(values.count % channelCount == 0 && speed > 0)
            self.values = values
            self.channelCount = channelCount
            self.speed = speed
            self.faults = faults
            self.acceleration = acceleration
            self.loops = loops
            self.electrodeOhms = electrodeOhms
        }
    }

    /// The simulator's counters. Any thread.
    public struct Counters: Sendable, Hashable {
        /// Packets written to the pty (dropped ones not counted).
        public var packetsSent = 0
        /// Whole frames of `values` sent (a Daisy frame counts once both its packets went).
        public var framesSent = 0
        /// Every command received, in order (single letters and `x…X` settings).
        public var commands: [String] = []
        /// Whether packets are being streamed.
        public var isStreaming = false
        /// Whether every frame has been sent (and `loops` is off).
        public var finished = false
    }

    /// The configuration.
    public let configuration: Configuration
    /// The pty path a client opens (`/dev/pts/N`).
    public let path: String
    private let pty: PseudoTerminal
    private let shared = ThreadLocked(Counters())
    private let stopFlag = ThreadLocked(false)
    private var thread: WorkerThread?

    /// Opens the pseudo-terminal; nothing is answered until ``start()``.
    public init(configuration: Configuration) throws(SimulatedCytonError) {
        self.configuration = configuration
        pty = try PseudoTerminal()
        path = pty.path
    }

    deinit {
        stop()
        pty.close()
    }

    /// The counters now. Any thread.
    public func counters() -> Counters { shared.withLock { $0 } }

    /// Starts answering on the pty, on a thread of its own.
    public func start() throws(SimulatedCytonError) {
        guard thread == nil else { return }
        let engine = Engine(simulator: self)
        do {
            thread = try WorkerThread(name: "axon-sim-cyton") { engine.run() }
        } catch { throw .thread(error) }
    }

    /// Stops the simulator's thread and waits for it; idempotent. The pty stays open until the simulator goes.
    public func stop() {
        stopFlag.withLock { $0 = true }
        thread?.join()
        thread = nil
    }

    fileprivate var isStopRequested: Bool { stopFlag.withLock { $0 } }
    fileprivate var masterDescriptor: Int32 { pty.master }
    fileprivate func update(_ body: (inout Counters) -> Void) { shared.withLock(body) }
}

/// The simulator's thread: reads commands, answers, streams packets.
private final class Engine: @unchecked Sendable {
    // Sendable invariant: used only on the simulator's thread after creation.
    let simulator: SimulatedCyton
    let configuration: SimulatedCyton.Configuration
    let io: FileDescriptorIO
    var gains = Array(repeating: CytonGain.default, count: 16)
    var leadOff = Array(repeating: false, count: 16)
    var streaming = false
    var streamStart = 0.0
    var packetIndex = 0  // packets since `b`, dropped ones included
    var pendingCommand: [UInt8] = []
    let frameCount: Int
    let packetsPerFrame: Int

    init(simulator: SimulatedCyton) {
        self.simulator = simulator
        configuration = simulator.configuration
        io = FileDescriptorIO(endpoint: simulator.path)
        frameCount = configuration.values.count / configuration.channelCount
        packetsPerFrame = configuration.channelCount / 8
    }

    var packetRate: Double { 250 * configuration.speed }

    func run() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while !simulator.isStopRequested {
            let wait = streaming ? max(0, streamStart + Double(packetIndex) / packetRate - HostClock.now()) : 0.05
            var descriptor = pollfd(fd: simulator.masterDescriptor, events: Int16(POLLIN), revents: 0)
            let result = poll(&descriptor, 1, Int32((min(wait, 0.05) * 1000).rounded(.up)))
            if result > 0, descriptor.revents & Int16(POLLIN) != 0 {
                let count = buffer.withUnsafeMutableBytes {
                    Glibc.read(simulator.masterDescriptor, $0.baseAddress!, $0.count)
                }
                if count > 0 { handle(Array(buffer[0..<count])) }
            }
            if streaming { sendDuePackets() }
        }
    }

    // MARK: - Commands

    func handle(_ bytes: [UInt8]) {
        for byte in bytes {
            if pendingCommand.first == UInt8(ascii: "z") || (pendingCommand.isEmpty && byte == UInt8(ascii: "z")) {
                pendingCommand.append(byte)
                if pendingCommand.count == 5 || (pendingCommand.count > 1 && byte == UInt8(ascii: "Z")) {
                    let text = String(decoding: pendingCommand, as: UTF8.self)
                    pendingCommand = []
                    record(text)
                    if let setting = CytonLeadOff.parse(text), setting.channel <= configuration.channelCount {
                        leadOff[setting.channel - 1] = setting.p || setting.n
                        if !streaming { reply("Success: Lead off set for \(setting.channel)$$$") }
                    } else if !streaming {
                        reply(text.count < 5 ? "Failure: too few chars$$$" : "Failure: 5th char not Z$$$")
                    }
                }
                continue
            }
            if !pendingCommand.isEmpty || byte == UInt8(ascii: "x") {
                pendingCommand.append(byte)
                if pendingCommand.count == 9 || byte == UInt8(ascii: "X") {
                    let text = String(decoding: pendingCommand, as: UTF8.self)
                    pendingCommand = []
                    record(text)
                    do throws(CytonError) {
                        let settings = try CytonChannelSettings(command: text)
                        if settings.channel > configuration.channelCount {
                            reply("Failure: no Daisy for channel \(settings.channel)$$$")
                        } else {
                            gains[settings.channel - 1] = settings.gain
                            reply("Success: Channel set for \(settings.channel)$$$")
                        }
                    } catch {
                        reply("Failure: too few chars$$$")
                    }
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "v"):
                record("v")
                streaming = false
                gains = Array(repeating: .default, count: 16)
                leadOff = Array(repeating: false, count: 16)
                reply(CytonBanner.text(daisy: configuration.channelCount == 16))
            case UInt8(ascii: "b"):
                record("b")
                streaming = true
                streamStart = HostClock.now()
                packetIndex = 0
                simulator.update {
                    $0.isStreaming = true; $0.finished = false
                }
            case UInt8(ascii: "s"):
                record("s")
                streaming = false
                simulator.update { $0.isStreaming = false }
            case UInt8(ascii: "d"):
                record("d")
                gains = Array(repeating: .default, count: 16)
                reply("updating channel settings to default$$$")
            default:
                break
            }
        }
    }

    func record(_ command: String) { simulator.update { $0.commands.append(command) } }

    func reply(_ text: String) {
        try? io.write(simulator.masterDescriptor, Array(text.utf8), deadline: HostClock.now() + 1)
    }

    // MARK: - Packets

    func sendDuePackets() {
        let due = Int(((HostClock.now() - streamStart) * packetRate).rounded(.down)) + 1
        var bytes: [UInt8] = []
        var sent = 0
        var frames = 0
        while packetIndex < due, bytes.count < 64 * CytonPacket.size {
            let frameIndex = packetIndex / packetsPerFrame
            if frameIndex >= frameCount {
                if configuration.loops {
                    streamStart += Double(packetIndex) / packetRate
                    packetIndex = 0
                    continue
                }
                streaming = false
                simulator.update {
                    $0.isStreaming = false; $0.finished = true
                }
                break
            }
            let index = packetIndex
            packetIndex += 1
            if isDropped(index) { continue }
            var packet = makePacket(index: index, frame: frameIndex).bytes
            for fault in configuration.faults {
                switch fault {
                case .truncate(let at, let keep) where at == index: packet = Array(packet.prefix(max(1, min(32, keep))))
                case .wrongFooter(let at) where at == index: packet[32] = 0x00
                default: break
                }
            }
            bytes += packet
            sent += 1
            if (index + 1) % packetsPerFrame == 0 { frames += 1 }
            for case .garbage(let after, let garbage) in configuration.faults where after == index { bytes += garbage }
        }
        guard !bytes.isEmpty else { return }
        do throws(ByteLinkError) {
            try io.write(simulator.masterDescriptor, bytes, deadline: HostClock.now() + 5)
        } catch {
            return
        }
        simulator.update {
            $0.packetsSent += sent
            $0.framesSent += frames
        }
    }

    func isDropped(_ index: Int) -> Bool {
        configuration.faults.contains {
            if case .drop(let range) = $0 { return range.contains(index) } else { return false }
        }
    }

    /// Packet `index` of the stream: frame `frame`'s board half (or the Daisy half, with a Daisy, for odd indices).
    func makePacket(index: Int, frame: Int) -> CytonPacket {
        let daisyHalf = packetsPerFrame == 2 && index % 2 == 1
        let firstChannel = daisyHalf ? 8 : 0
        let base = frame * configuration.channelCount + firstChannel
        let rate = packetsPerFrame == 2 ? CytonBoard.daisySampleRate : CytonBoard.sampleRate
        let phase = 2 * Double.pi * CytonLeadOff.frequency * Double(frame) / rate
        let counts = (0..<8).map { channel -> Int32 in
            let scale = gains[firstChannel + channel].microvoltsPerCount
            var value = configuration.values[base + channel]
            if leadOff[firstChannel + channel], firstChannel + channel < configuration.electrodeOhms.count {
                let ohms = configuration.electrodeOhms[firstChannel + channel]
                value += CytonLeadOff.amplitudeMicrovolts(electrodeOhms: ohms) * sin(phase)
            }
            let count = (value / scale).rounded()
            return Int32(min(max(count, -8_388_608), 8_388_607))
        }
        // With a Daisy the board packet has an odd sample number and the Daisy's the even one after it.
        let sampleNumber = UInt8(truncatingIfNeeded: packetsPerFrame == 2 ? index + 1 : index)
        let boardPacketNumber = packetsPerFrame == 2 ? index / 2 : index
        if !daisyHalf, boardPacketNumber % 10 == 0 {
            let a = configuration.acceleration
            return CytonPacket(
                sampleNumber: sampleNumber, counts: counts, aux: CytonPacket.accelerometerAux(x: a.x, y: a.y, z: a.z))
        }
        return CytonPacket(sampleNumber: sampleNumber, counts: counts)
    }
}
