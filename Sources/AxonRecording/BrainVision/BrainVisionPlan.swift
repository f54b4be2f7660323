/// How ``BrainVisionWriter`` codes a recording's samples: one ``BrainVisionBinaryFormat`` for the file and a
/// resolution per channel, chosen so that nothing is lost when that is possible.
///
/// The choice, in order (``init(_:)``):
///
/// 1. **`IEEE_FLOAT_32`**, when every value of each channel is exactly a 32-bit float times one of the resolutions
///    1, 0.1 and 10⁶ (NaN included): integers below 2²⁴ (an EDF's or BDF's digital steps of 1 µV) and values read
///    from a float32 file at resolution 1; MNE-Python's own BrainVision export (float32 µV × 10) at 0.1; float32
///    volts given in µV (a FIF file MNE-Python saved) at 10⁶, the float32 holding the volts.
/// 2. **`INT_16`, else `INT_32`**, when every value of each channel is a whole multiple of one resolution: the
///    largest of 1, 0.1, …, 10⁻⁹ (values written with a fixed number of decimals, as the OpenBCI GUI's 0.01 µV) and
///    the channel's smallest step between two values and its half (an EDF's or BDF's step, also when its digital
///    range is offset by half a step). "Whole multiple" means that the value read back, coded number × resolution,
///    equals the source to 10⁻⁶ of the resolution: every digit of the resolution is kept. `INT_16` when every coded
///    number fits in 16 bits.
/// 3. Otherwise **`IEEE_FLOAT_32`, resolution 1, lossy**: ``maximumErrors`` gives each channel's largest rounding
///    error and ``losses`` says it in words; `axon convert` refuses such a plan unless `--allow-lossy`.
///
/// Threading: an immutable value; share freely. Complexity: O(frames × channels × log frames) to choose.
public struct BrainVisionPlan: Sendable, Hashable {
    /// The file's binary format.
    public var binaryFormat: BrainVisionBinaryFormat
    /// Each channel's resolution, in its unit: a value is written as `value ÷ resolution`.
    public var resolutions: [Double]
    /// Each channel's largest difference between a source value and the value read back (0 when exact).
    public var maximumErrors: [Double]
    /// What the file would lose, one sentence each; empty when every value, label and unit is kept.
    public var losses: [String]

    /// Whether anything is lost.
    public var isLossy: Bool { !losses.isEmpty }

    /// The resolutions tried for whole multiples, largest first.
    static let decimalResolutions: [Double] = [1, 0.1, 0.01, 0.001, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9]

    /// The resolutions tried for 32-bit floats, in order.
    static let floatResolutions: [Double] = [1, 0.1, 1e6]

    /// Chooses the coding of `recording`'s samples (its own stream; ``Recording/companions`` are not written).
    public init(_ recording: Recording) {
        let channels = recording.channelCount
        let frames = recording.frameCount
        let values = recording.values
        var losses: [String] = []
        for channel in recording.descriptor.channels {
            if channel.label.contains(where: \.isNewline) || channel.unit.contains(where: \.isNewline) {
                losses.append("\(channel.label): a line break in the label or unit is written as a space")
            }
        }
        let columns = (0..<channels).map { channel in (0..<frames).map { values[$0 * channels + channel] } }
        let floats = columns.compactMap(Self.floatResolution(of:))
        if floats.count == channels {
            self.init(
                binaryFormat: .float32, resolutions: floats, maximumErrors: Array(repeating: 0, count: channels),
                losses: losses)
            return
        }
        var resolutions: [Double] = []
        var fits16 = true
        for column in columns {
            guard let (resolution, coded) = Self.wholeMultiple(of: column) else { break }
            resolutions.append(resolution)
            fits16 = fits16 && coded.lowerBound >= -32_768 && coded.upperBound <= 32_767
        }
        if resolutions.count == channels {
            self.init(
                binaryFormat: fits16 ? .int16 : .int32, resolutions: resolutions,
                maximumErrors: Array(repeating: 0, count: channels), losses: losses)
            return
        }
        var errors = [Double](repeating: 0, count: channels)
        for (index, value) in values.enumerated() where !value.isNaN {
            let written = Double(Float(value))
            errors[index % channels] = max(
                errors[index % channels], written.isFinite ? abs(written - value) : .infinity)
        }
        for (channel, error) in zip(recording.descriptor.channels, errors) where error > 0 {
            losses.append(
                "\(channel.label): 32-bit floats round values by up to \(error) \(channel.unit) (no whole-number "
                    + "coding of 16 or 32 bits holds every value)")
        }
        self.init(
            binaryFormat: .float32, resolutions: Array(repeating: 1, count: channels), maximumErrors: errors,
            losses: losses)
    }

    /// A plan of one's own (its losses are not checked).
    public init(
        binaryFormat: BrainVisionBinaryFormat, resolutions: [Double], maximumErrors: [Double], losses: [String]
    ) {
        self.binaryFormat = binaryFormat
        self.resolutions = resolutions
        self.maximumErrors = maximumErrors
        self.losses = losses
    }

    /// The first of ``floatResolutions`` at which every value is a 32-bit float times it, or `nil`.
    static func floatResolution(of column: [Double]) -> Double? {
        floatResolutions.first { resolution in
            column.allSatisfy { $0.isNaN || Double(Float($0 / resolution)) * resolution == $0 }
        }
    }

    /// The largest resolution of which every value is a whole multiple within 32 bits, and the range of the coded
    /// numbers; `nil` when there is none (or a value is not finite).
    static func wholeMultiple(of column: [Double]) -> (Double, ClosedRange<Double>)? {
        guard column.allSatisfy(\.isFinite) else { return nil }
        var candidates = decimalResolutions
        let sorted = Set(column).sorted()
        var step = Double.infinity
        for (a, b) in zip(sorted, sorted.dropFirst()) { step = min(step, b - a) }
        if step.isFinite, step > 0, let low = sorted.first, let high = sorted.last {
            // The step from the whole span: a difference of two large values carries their rounding, the span divided
            // by its number of steps does not.
            let steps = ((high - low) / step).rounded()
            if steps >= 1, steps < 1e12 { step = (high - low) / steps }
            candidates += [step, step / 2]
        }
        candidates.sort(by: >)
        let low = sorted.first ?? 0
        let high = sorted.last ?? 0
        for resolution in candidates {
            let coded = (low / resolution).rounded()...(high / resolution).rounded()
            guard coded.lowerBound >= -2_147_483_648, coded.upperBound <= 2_147_483_647 else { continue }
            var exact = true
            for value in sorted {
                let coded = (value / resolution).rounded()
                if abs(coded * resolution - value) > 1e-6 * resolution {
                    exact = false
                    break
                }
            }
            if exact { return (resolution, coded) }
        }
        return nil
    }
}
