extension SimulatedBrainiacHeadset {
    /// How the simulated headset behaves.
    ///
    /// Threading: a value type; share freely.
    public struct Configuration: Sendable, Hashable {
        /// The test sequence's dominant frequency in Hz (the SDK's `startTestSequenceWithDominantFrequence:`).
        public var dominantFrequency: Double
        /// Peak amplitude of the sine on every channel, µV.
        public var amplitude: Double
        /// Standard deviation of the Gaussian noise added to every value, µV (0 for a pure sine).
        public var noise: Double
        /// Seed of the noise (and of ``BrainiacFault/garbage(length:)`` bytes), for reproducible runs.
        public var seed: UInt64
        /// Seconds of samples to produce; `nil` runs until the pipeline asks the source to stop.
        public var duration: Double?
        /// Pace notifications in real time (`true`: each one is sent when its last sample exists, with
        /// `HostClock.sleep(until:)` on absolute deadlines, and stamped with the true arrival time), or send them
        /// as fast as possible with *virtual* arrival times (the times they would have arrived).
        public var realTime: Bool
        /// EEG samples per notification, 1…10.
        public var samplesPerNotification: Int
        /// Seconds of samples between battery notifications (one is also sent at the start); `nil` for none.
        public var batteryInterval: Double?
        /// The battery level of the first battery notification, 0…100.
        public var initialBatteryLevel: Int
        /// Percent the battery loses between consecutive battery notifications (it stops at 0).
        public var batteryDrainPerReport: Int
        /// The device time of the first sample, ms since 1970; `nil` takes the wall clock at the start.
        public var deviceStartTime: UInt64?
        /// The sample counter of the first sample (the counter wraps at 2³²).
        public var firstCounter: UInt32
        /// The hardware order number of the first notification (it wraps at 65 536).
        public var firstOrderNumber: UInt16
        /// Damaged notifications: key = index of the EEG notification (0-based) that arrives damaged.
        public var faults: [Int: BrainiacFault]

        /// Creates a configuration. Defaults: a 10 Hz, 50 µV sine on every channel without noise, 10 samples per
        /// notification, in real time until stopped, a battery notification every 10 s from 100 % down by 1 %.
        ///
        /// Out-of-range settings (samples per notification outside 1…10, a negative or non-finite frequency,
        /// amplitude or noise, a duration or battery interval ≤ 0, a battery level outside 0…100) are programmer
        /// errors and stop the process.
        public init(
            dominantFrequency: Double = 10, amplitude: Double = 50, noise: Double = 0, seed: UInt64 = 1,
            duration: Double? = nil, realTime: Bool = true, samplesPerNotification: Int = 10,
            batteryInterval: Double? = 10, initialBatteryLevel: Int = 100, batteryDrainPerReport: Int = 1,
            deviceStartTime: UInt64? = nil, firstCounter: UInt32 = 0, firstOrderNumber: UInt16 = 0,
            faults: [Int: BrainiacFault] = [:]
        ) {
            precondition(dominantFrequency.isFinite && dominantFrequency >= 0, "frequency must be finite and ≥ 0")
            precondition(amplitude.isFinite && amplitude >= 0 && noise.isFinite && noise >= 0,
                         "amplitude and noise must be finite and ≥ 0")
            precondition(duration.map { $0.isFinite && $0 > 0 } ?? true, "duration must be finite and > 0")
            precondition((1...BrainiacPacketLayout.maximumSamplesPerNotification).contains(samplesPerNotification),
                         "a notification carries 1 to \(BrainiacPacketLayout.maximumSamplesPerNotification) samples")
            precondition(batteryInterval.map { $0.isFinite && $0 > 0 } ?? true, "battery interval must be > 0")
            precondition((0...BrainiacPacketLayout.maximumBatteryLevel).contains(initialBatteryLevel)
                         && batteryDrainPerReport >= 0, "battery level must be 0…100, its drain ≥ 0")
            self.dominantFrequency = dominantFrequency
            self.amplitude = amplitude
            self.noise = noise
            self.seed = seed
            self.duration = duration
            self.realTime = realTime
            self.samplesPerNotification = samplesPerNotification
            self.batteryInterval = batteryInterval
            self.initialBatteryLevel = initialBatteryLevel
            self.batteryDrainPerReport = batteryDrainPerReport
            self.deviceStartTime = deviceStartTime
            self.firstCounter = firstCounter
            self.firstOrderNumber = firstOrderNumber
            self.faults = faults
        }

        /// Samples the run produces, or `nil` when it runs until stopped.
        public var totalSamples: Int? {
            duration.map { Int(($0 * BrainiacHeadset.sampleRate).rounded()) }
        }
    }
}
