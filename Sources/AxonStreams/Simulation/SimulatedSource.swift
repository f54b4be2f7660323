import Foundation

/// A synthetic device: a regular multi-channel stream with known content, for tests, benchmarks and the demo.
///
/// Each channel is a sum of sines plus optional Gaussian noise; the device can lose packets (counter gaps),
/// run its clock fast or slow, and deliver with arrival jitter, so every part of the stream framework can be
/// checked against a known truth.
///
///     let source = SimulatedSource(configuration: .init(rate: 250, channels: 4, duration: 5))
///     let pipeline = StreamPipeline(source: source, sinks: [mySink])
///
/// Threading contract: an immutable value; `run` is called on the pipeline's source thread.
public struct SimulatedSource: SampleSource {
    /// One sine component of a channel.
    public struct Tone: Sendable, Hashable {
        /// Frequency in Hz.
        public var frequency: Double
        /// Peak amplitude in the channel's unit.
        public var amplitude: Double
        /// Creates a tone.
        public init(frequency: Double, amplitude: Double) {
            self.frequency = frequency
            self.amplitude = amplitude
        }
    }

    /// How the simulated device behaves.
    public struct Configuration: Sendable, Hashable {
        /// Samples per second.
        public var rate: Double
        /// Channel labels (their count is the channel count).
        public var channelLabels: [String]
        /// Unit of every channel.
        public var unit: String
        /// Tones per channel; channel `c` uses `tones[c % tones.count]`.
        public var tones: [[Tone]]
        /// Standard deviation of added Gaussian noise.
        public var noise: Double
        /// Seconds to run; `nil` runs until stopped.
        public var duration: Double?
        /// Pace samples in real time (`true`), or write them as fast as the ring takes them — waiting for room, so
        /// none is rejected — with *virtual* arrival times (as if paced), so timestamps and gaps mean the same in
        /// both modes.
        public var realTime: Bool
        /// Samples per packet: a real headset sends a few samples per Bluetooth notification.
        public var samplesPerPacket: Int
        /// Counter values that are skipped (lost packets), as sample indices that never arrive.
        public var lostSamples: Set<Int>
        /// The device counter wraps to 0 at this value; `nil` for a counter that never wraps.
        public var counterModulus: UInt64?
        /// The device clock's rate error in parts per million (positive = fast).
        public var clockDriftPPM: Double
        /// Upper bound of the uniform arrival delay added to each packet, in seconds.
        public var arrivalJitter: Double
        /// Pacing multiplier: 20 delivers twenty seconds of samples per host second (arrival times compressed
        /// accordingly, device times unchanged). Must be finite and > 0; 1 is real time.
        public var speed: Double
        /// Seed of the noise and jitter generators, for reproducible runs.
        public var seed: UInt64

        /// Creates a configuration. Defaults: the Brainiac headset's shape (4 channels T3, O1, T4, O2 in µV at
        /// 250 Hz) with a 10 Hz alpha rhythm, theta and beta tones, and a little noise, in real time.
        public init(
            rate: Double = 250, channelLabels: [String] = ["T3", "O1", "T4", "O2"], unit: String = "µV",
            tones: [[Tone]] = [[.init(frequency: 10, amplitude: 20), .init(frequency: 5, amplitude: 8),
                                .init(frequency: 20, amplitude: 4)]],
            noise: Double = 2, duration: Double? = nil, realTime: Bool = true, samplesPerPacket: Int = 1,
            lostSamples: Set<Int> = [], counterModulus: UInt64? = nil, clockDriftPPM: Double = 0,
            arrivalJitter: Double = 0, seed: UInt64 = 1, speed: Double = 1
        ) {
            precondition(rate > 0 && !channelLabels.isEmpty && !tones.isEmpty && samplesPerPacket >= 1)
            precondition(speed.isFinite && speed > 0, "a simulator speed must be finite and > 0")
            self.rate = rate
            self.channelLabels = channelLabels
            self.unit = unit
            self.tones = tones
            self.noise = noise
            self.duration = duration
            self.realTime = realTime
            self.samplesPerPacket = samplesPerPacket
            self.lostSamples = lostSamples
            self.counterModulus = counterModulus
            self.clockDriftPPM = clockDriftPPM
            self.arrivalJitter = arrivalJitter
            self.seed = seed
            self.speed = speed
        }
    }

    /// The device's behaviour.
    public let configuration: Configuration
    /// The stream it produces.
    public let descriptor: StreamDescriptor

    /// Creates a simulated device.
    public init(configuration: Configuration = .init(), sourceID: String = "simulated-0") {
        self.configuration = configuration
        self.descriptor = StreamDescriptor(
            name: "Simulated EEG", contentType: .eeg,
            channels: configuration.channelLabels.map { ChannelInfo(label: $0, unit: configuration.unit) },
            nominalRate: configuration.rate, format: .float32, sourceID: sourceID,
            metadata: ["simulated": "true"])
    }

    /// The noiseless value of channel `channel` at sample index `index`: the truth tests compare against.
    public func idealValue(channel: Int, index: Int) -> Double {
        let time = Double(index) / configuration.rate
        var value = 0.0
        for tone in configuration.tones[channel % configuration.tones.count] {
            value += tone.amplitude * sin(2 * .pi * tone.frequency * time)
        }
        return value
    }

    /// Writes samples until the duration ends or a stop is requested.
    public func run(into writer: FrameWriter) throws {
        let c = configuration
        let channels = c.channelLabels.count
        var random = SplitMix64(seed: c.seed)
        var frame = [Double](repeating: 0, count: channels)
        let total = c.duration.map { Int(($0 * c.rate).rounded()) }
        let start = HostClock.now()
        let deviceScale = 1 + c.clockDriftPPM * 1e-6  // device seconds per true second
        var index = 0
        while total.map({ index < $0 }) ?? true, !writer.isStopRequested {
            let packetEnd = min(index + c.samplesPerPacket, total ?? Int.max)
            // A packet leaves the device once its last sample exists; the simulated link adds jitter.
            let trueTimeOfLast = start + Double(packetEnd - 1) / c.rate / c.speed
            let arrival = trueTimeOfLast + random.uniform() * c.arrivalJitter
            if c.realTime {
                HostClock.sleep(until: arrival)  // simulated device pacing
            } else {
                // Unpaced, the simulator waits for room as a file replay does, so the ring never rejects a frame:
                // a slow stage (a sink that syncs every record) slows the run down instead of thinning it out.
                let packet = min(packetEnd - index, writer.ringCapacity)
                while writer.freeCapacity < packet, !writer.isStopRequested {
                    writer.waitForRoom(atLeast: max(packet, writer.ringCapacity / 2))
                }
                if writer.isStopRequested { break }
            }
            for sample in index..<packetEnd where !c.lostSamples.contains(sample) {
                for channel in 0..<channels {
                    frame[channel] = idealValue(channel: channel, index: sample) + c.noise * random.gaussian()
                }
                let counter = c.counterModulus.map { UInt64(sample) % $0 } ?? UInt64(sample)
                writer.write(frame, deviceTime: Double(sample) / c.rate * deviceScale, counter: counter,
                             arrivalTime: arrival)
            }
            index = packetEnd
        }
    }
}

/// A small, fast, seedable generator (SplitMix64) with uniform and Gaussian draws, so simulated devices and their
/// tests are reproducible.
///
/// Threading: a value type owned by one thread.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator; equal seeds give equal sequences.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    public mutating func uniform() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Standard normal (Box–Muller).
    public mutating func gaussian() -> Double {
        let u = max(uniform(), .leastNormalMagnitude)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * uniform())
    }
}
