// AxonDSP — the dominant frequency found inside a band.

/// The dominant component of a spectrum inside a band, as found by ``FrequencyGrid/peak(of:in:)-(UnsafeBufferPointer<Double>,_)``.
///
/// Threading: a plain value, `Sendable`.
public struct SpectralPeak: Sendable, Equatable {
    /// The peak frequency in hertz, refined between bins by parabolic interpolation of the log power. Inside the
    /// band: ``FrequencyGrid/peak(of:in:)-(UnsafeBufferPointer<Double>,_)`` clamps it onto the band's edge, ``FrequencyGrid/localPeak(of:in:)``
    /// reports no peak instead.
    public var frequency: Double
    /// The spectrum's value at ``bin`` (not interpolated), in the spectrum's own unit.
    public var power: Double
    /// The index of the largest bin inside the band; its centre is `bin · fs / N` hertz.
    public var bin: Int

    /// Creates a peak from its refined frequency, the peak bin's power and its index.
    public init(frequency: Double, power: Double, bin: Int) {
        self.frequency = frequency
        self.power = power
        self.bin = bin
    }
}
