import AxonDevices
import AxonStreams
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A Muse headband in-process: a ``AxonDevices/DeviceTransport`` that encodes recorded EEG into the real 20-byte
/// notifications (and telemetry, accelerometer, gyroscope and PPG notifications) on a thread of its own, with the
/// headset's command handling — without D-Bus. The same behaviour as the mock bluetoothd's `muse` kind
/// (`scripts/bluez-mock/kinds/muse.py`), for tests and runs that need no bus: a ``MuseSource`` on it sees the
/// bytes a headset sends, never the recording.
///
/// The headset's clock runs ``Configuration/speed`` times real time from creation; the packet index counts with
/// it (12 samples at 256 Hz per index), streamed or not. After `d` (until `h`, or until
/// ``Configuration/keepAliveTimeout`` seconds of its time pass without `k` or `d`, which halts it) it sends, per
/// packet index, one EEG notification per channel (TP9, AF7, AF8, TP10, and right AUX with preset `p20`) from
/// ``Configuration/frames`` (looped), and by its clock: telemetry once a second, accelerometer and gyroscope every
/// 3/52 s (``acceleration``, ``rotation``), PPG every 6/64 s when ``Configuration/ppg`` (``ppgSample(_:)``).
/// Packets in ``Configuration/droppedPackets`` (counted from the first streamed) are never sent.
///
/// Threading: any thread may call the transport methods; notifications and link events come from the simulator's
/// one thread (the transport's delivery thread). ``counters()`` from any thread.
public final class SimulatedMuse: DeviceTransport, @unchecked Sendable {
    // Sendable invariant: mutable state is in `shared` (locked); `thread` is touched by open/close only.

    /// What the simulated headset sends.
    ///
    /// Threading: a value type.
    public struct Configuration: Sendable {
        /// EEG rows in µV: TP9, AF7, AF8, TP10, and right AUX when a fifth value is present (else AUX sends 0 µV).
        public var frames: [[Double]]
        /// The headset's clock rate relative to real time.
        public var speed: Double
        /// Seconds of headset time without `k` (or `d`) after which it halts; 0 never.
        public var keepAliveTimeout: Double
        /// Battery % in telemetry.
        public var battery: Double
        /// Whether accelerometer and gyroscope are sent.
        public var motion: Bool
        /// Whether PPG is sent (a Muse 2 / S).
        public var ppg: Bool
        /// Packets never sent, counted from the first packet streamed (0-based).
        public var droppedPackets: Set<Int>

        /// A configuration; `frames` must not be empty.
        public init(
            frames: [[Double]], speed: Double = 1, keepAliveTimeout: Double = 0, battery: Double = 80,
            motion: Bool = true, ppg: Bool = false, droppedPackets: Set<Int> = []
        ) {
            precondition(!frames.isEmpty && frames.allSatisfy { $0.count >= 4 }, "frames need 4 or 5 values")
            precondition(speed > 0 && speed.isFinite, "speed must be positive")
            self.frames = frames
            self.speed = speed
            self.keepAliveTimeout = keepAliveTimeout
            self.battery = battery
            self.motion = motion
            self.ppg = ppg
            self.droppedPackets = droppedPackets
        }
    }

    /// What the simulated headset did.
    ///
    /// Threading: a value type.
    public struct Counters: Sendable, Hashable {
        /// EEG packet indices sent (all channels).
        public var packetsSent = 0
        /// `k` commands received.
        public var keepAlives = 0
        /// Halts after the keep-alive timeout.
        public var halts = 0
        /// Every command received, in order.
        public var commands: [String] = []
        /// Telemetry, motion (accelerometer + gyroscope pairs) and PPG packets sent.
        public var telemetrySent = 0
        /// Accelerometer + gyroscope notification pairs sent.
        public var motionSent = 0
        /// PPG packet indices sent (three notifications each).
        public var ppgSent = 0
        /// Whether it is streaming now.
        public var streaming = false
    }

    /// The accelerometer's constant reading, g.
    public static let acceleration = [0.0, 0.0, 1.0]
    /// The gyroscope's constant reading, °/s.
    public static let rotation = [0.5, -0.5, 0.0]

    /// PPG sample `n` (counted at 64 Hz from the first streamed), raw counts [ambient, infrared, red]: a 72 beats per
    /// minute pulse, `[20000, 300000 + round(20000 sin(2π · 1.2 · n / 64)), 200000 + round(10000 sin(…))]`.
    public static func ppgSample(_ n: Int) -> [UInt32] {
        let phase = sin(2 * Double.pi * 1.2 * Double(n) / 64)
        return [20_000, UInt32(300_000 + (20_000 * phase).rounded()), UInt32(200_000 + (10_000 * phase).rounded())]
    }

    /// "simulated Muse".
    public let deviceDescription = "simulated Muse"
    /// Link events (`.connected`, `.ready` on open). One consumer.
    public let events: AsyncStream<LinkEvent>
    /// The configuration.
    public let configuration: Configuration

    private let eventContinuation: AsyncStream<LinkEvent>.Continuation
    private let born = HostClock.now()
    private let shared = ThreadLocked(State())
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)

    private struct State {
        var receiver: (any TransportReceiver)?
        var subscribed: Set<BluetoothUUID> = []
        var wantsStream = false
        var lastKeepAlive = 0.0
        var preset = "p21"
        var nextIndex = 0
        var streamOrigin: Int?
        var nextTelemetry: Double?
        var nextMotion: Double?
        var ppgSamples = 0
        var auxIndex = 0
        var stop = false
        var counters = Counters()
    }

    /// A headset that is on (its clock runs) but not yet connected.
    public init(configuration: Configuration) {
        self.configuration = configuration
        (events, eventContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
    }

    /// What it did so far. Any thread.
    public func counters() -> Counters { shared.withLock { $0.counters } }

    /// Subscribes `notifications` and starts the headset's thread.
    public func open(notifications: [GATTCharacteristicID], receiver: any TransportReceiver)
        async throws(TransportError)
    {
        try openBlocking(notifications: notifications, receiver: receiver)
    }

    /// ``open(notifications:receiver:)`` without a task.
    public func openBlocking(notifications: [GATTCharacteristicID], receiver: any TransportReceiver)
        throws(TransportError)
    {
        let alreadyOpen = shared.withLock { state -> Bool in
            if state.receiver != nil { return true }
            state.receiver = receiver
            state.subscribed = Set(notifications.map(\.characteristic))
            return false
        }
        guard !alreadyOpen else { throw .operationFailed("the simulated Muse is already open") }
        for event in [LinkEvent.connected, .ready] {
            receiver.transport(didChange: event)
            eventContinuation.yield(event)
        }
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "simulated-muse"
        self.thread = thread
        thread.start()
    }

    /// Reads are not part of the Muse protocol Axon uses.
    public func read(_ characteristic: GATTCharacteristicID) async throws(TransportError) -> [UInt8] {
        throw .characteristicMissing(characteristic)
    }

    /// A command on the control characteristic (length-prefixed ASCII ending in a newline).
    public func write(_ value: [UInt8], to characteristic: GATTCharacteristicID, withResponse: Bool)
        async throws(TransportError)
    {
        try writeBlocking(value, to: characteristic, withResponse: withResponse)
    }

    /// ``write(_:to:withResponse:)`` without a task.
    public func writeBlocking(_ value: [UInt8], to characteristic: GATTCharacteristicID, withResponse: Bool)
        throws(TransportError)
    {
        guard characteristic.characteristic == MuseGATTProfile.control else {
            throw .characteristicMissing(characteristic)
        }
        guard value.count >= 2, Int(value[0]) == value.count - 1, value.last == 0x0A else {
            throw .operationFailed("malformed Muse command")
        }
        let command = String(decoding: value[1..<(value.count - 1)], as: UTF8.self)
        let now = headsetSeconds()
        shared.withLock { state in
            guard !state.stop else { return }
            state.counters.commands.append(command)
            switch command {
            case "d":
                state.wantsStream = true
                state.lastKeepAlive = now
                if !state.counters.streaming {
                    // Streaming starts at the clock's current index: the indices while halted were not sent.
                    state.nextIndex = max(state.nextIndex, Self.clockIndex(now))
                    if state.streamOrigin == nil { state.streamOrigin = state.nextIndex }
                }
                state.counters.streaming = true
            case "h":
                state.wantsStream = false
                state.counters.streaming = false
            case "k":
                state.counters.keepAlives += 1
                state.lastKeepAlive = now
            default:
                if command.hasPrefix("p"), command.count == 3 { state.preset = command }
            }
        }
    }

    /// Stops the headset's thread; the receiver hears nothing more.
    public func close() async { closeBlocking() }

    /// ``close()`` without a task.
    public func closeBlocking() {
        let running = shared.withLock { state -> Bool in
            defer { state.stop = true }
            return !state.stop && state.receiver != nil
        }
        if running { finished.wait() }
        eventContinuation.finish()
    }

    private func headsetSeconds() -> Double { (HostClock.now() - born) * configuration.speed }

    private static func clockIndex(_ seconds: Double) -> Int {
        Int(seconds * MuseEEGPacket.sampleRate / Double(MuseEEGPacket.samplesPerPacket))
    }

    /// The headset's loop: send what its clock says is due, then wait (simulator pacing) for the next packet.
    private func run() {
        let packetSeconds = Double(MuseEEGPacket.samplesPerPacket) / MuseEEGPacket.sampleRate
        while true {
            let now = headsetSeconds()
            var due: [Int] = []
            var receiver: (any TransportReceiver)?
            var subscribed: Set<BluetoothUUID> = []
            var channels = 4
            let stop = shared.withLock { state -> Bool in
                if state.stop { return true }
                receiver = state.receiver
                subscribed = state.subscribed
                channels = MuseCommand.presetIncludesAux(state.preset) ? 5 : 4
                guard state.wantsStream else { return false }
                // The headset halts at its own timeout instant: what fell due before it is still sent, however late
                // this thread woke up, so the count before a halt does not depend on scheduling.
                let timesOut = configuration.keepAliveTimeout > 0
                    && now - state.lastKeepAlive > configuration.keepAliveTimeout
                let last = timesOut
                    ? Self.clockIndex(state.lastKeepAlive + configuration.keepAliveTimeout) : Self.clockIndex(now)
                if timesOut && state.nextIndex > last {
                    // Counted only once those packets have gone out (an earlier pass sent them).
                    state.wantsStream = false
                    state.counters.streaming = false
                    state.counters.halts += 1
                    return false
                }
                while state.nextIndex <= last && due.count < 64 {
                    due.append(state.nextIndex)
                    state.nextIndex += 1
                }
                return false
            }
            if stop { return }
            if let receiver {
                for index in due { send(packet: index, channels: channels, to: receiver, subscribed: subscribed) }
            }
            if due.count < 64 {
                let next = Double(Self.clockIndex(now) + 1) * packetSeconds
                let wait = max(0.000_2, min(0.005, (next - headsetSeconds()) / configuration.speed))
                usleep(UInt32(wait * 1_000_000))
            }
        }
    }

    private func send(
        packet index: Int, channels: Int, to receiver: any TransportReceiver, subscribed: Set<BluetoothUUID>
    ) {
        let origin = shared.withLock { $0.streamOrigin ?? index }
        let packetTime = Double(index) * Double(MuseEEGPacket.samplesPerPacket) / MuseEEGPacket.sampleRate
        if !configuration.droppedPackets.contains(index - origin) {
            let first = index * MuseEEGPacket.samplesPerPacket
            for channel in 0..<channels {
                let raw = (0..<MuseEEGPacket.samplesPerPacket).map { k -> UInt16 in
                    let row = configuration.frames[(first + k) % configuration.frames.count]
                    return MuseEEGPacket.raw(microvolts: channel < row.count ? row[channel] : 0)
                }
                let bytes = MuseEEGPacket(index: UInt16(truncatingIfNeeded: index), raw: raw).bytes
                notify(bytes, MuseGATTProfile.eeg[channel], receiver, subscribed)
            }
            shared.withLock { $0.counters.packetsSent += 1 }
        }
        sendAuxiliary(until: packetTime, receiver, subscribed)
    }

    private func sendAuxiliary(
        until time: Double, _ receiver: any TransportReceiver, _ subscribed: Set<BluetoothUUID>
    ) {
        var work: [(BluetoothUUID, [UInt8])] = []
        shared.withLock { state in
            var nextTelemetry = state.nextTelemetry ?? time
            var nextMotion = state.nextMotion ?? time
            defer {
                state.nextTelemetry = nextTelemetry
                state.nextMotion = nextMotion
            }
            while nextTelemetry <= time {
                nextTelemetry += 1
                let fields = [
                    UInt16(truncatingIfNeeded: state.auxIndex), UInt16(configuration.battery * 512),
                    UInt16((3700 / 2.2).rounded(.down)), 3000, 30,
                ]
                let bytes = fields.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } + [UInt8](repeating: 0, count: 10)
                work.append((MuseGATTProfile.telemetry, bytes))
                state.auxIndex += 1
                state.counters.telemetrySent += 1
            }
            while configuration.motion, nextMotion <= time {
                nextMotion += 3.0 / 52
                let index = UInt16(truncatingIfNeeded: state.auxIndex)
                for (characteristic, xyz, scale) in [
                    (MuseAuxiliaryPacket.accelerometer, Self.acceleration, MuseAuxiliaryPacket.accelerometerScale),
                    (MuseAuxiliaryPacket.gyroscope, Self.rotation, MuseAuxiliaryPacket.gyroscopeScale),
                ] {
                    var bytes = [UInt8(index >> 8), UInt8(index & 0xFF)]
                    for _ in 0..<3 {
                        for value in xyz {
                            let count = UInt16(bitPattern: Int16((value / scale).rounded()))
                            bytes += [UInt8(count >> 8), UInt8(count & 0xFF)]
                        }
                    }
                    work.append((characteristic, bytes))
                }
                state.auxIndex += 1
                state.counters.motionSent += 1
            }
            // PPG samples count at 64 Hz from the first streamed packet's time.
            let origin = Double((state.streamOrigin ?? 0) * MuseEEGPacket.samplesPerPacket) / MuseEEGPacket.sampleRate
            while configuration.ppg, origin + Double(state.ppgSamples) / 64 <= time {
                let index = UInt16(truncatingIfNeeded: state.ppgSamples / 6)
                let samples = (0..<6).map { Self.ppgSample(state.ppgSamples + $0) }
                for channel in 0..<3 {
                    var bytes = [UInt8(index >> 8), UInt8(index & 0xFF)]
                    for sample in samples {
                        let value = sample[channel]
                        bytes += [UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
                    }
                    work.append((MuseAuxiliaryPacket.ppg[channel], bytes))
                }
                state.ppgSamples += 6
                state.counters.ppgSent += 1
            }
        }
        for (characteristic, bytes) in work { notify(bytes, characteristic, receiver, subscribed) }
    }

    private func notify(
        _ bytes: [UInt8], _ characteristic: BluetoothUUID, _ receiver: any TransportReceiver,
        _ subscribed: Set<BluetoothUUID>
    ) {
        guard subscribed.contains(characteristic) else { return }
        receiver.transport(
            didReceive: bytes,
            from: GATTCharacteristicID(service: MuseGATTProfile.service, characteristic: characteristic),
            arrivalTime: HostClock.now())
    }
}
