// AxonEEG — where each number of an indicator lives in its flat row of doubles.

/// The flat layout of one indicator: the header (``Header``), the overall z-scores (one per band), then per
/// channel: zone, percent and one z-score per band (all NaN for a channel left out of the indicator). A row moves
/// through an `SPSCRing` as one slot.
///
/// Threading: a plain value, `Sendable`.
public struct IndicatorLayout: Sendable, Hashable {
    /// The header lanes.
    public enum Header: Int, CaseIterable, Sendable {
        /// Serial number of the indicator, from 0.
        case counter
        /// Index of the sample at which the indicator was made (the end of its period).
        case sampleIndex
        /// Time of that sample, milliseconds since 1970.
        case timeframe
        /// Spectra averaged in the period (those that could be used).
        case frames
        /// The overall zone's raw value.
        case zone
        /// The overall percent.
        case percent
        /// Spectra of the period left out (filled-in samples, artifacts, no usable channel).
        case excludedFrames
    }

    /// Channels per indicator.
    public let channelCount: Int
    /// Bands per channel.
    public let bandCount: Int

    /// Creates the layout.
    public init(channelCount: Int, bandCount: Int) {
        precondition(channelCount >= 1 && bandCount >= 1)
        self.channelCount = channelCount
        self.bandCount = bandCount
    }

    /// Number of header lanes.
    public static let headerCount = Header.allCases.count
    /// Doubles per channel block.
    public var channelStride: Int { 2 + bandCount }
    /// Doubles per row.
    public var width: Int { Self.headerCount + bandCount + channelCount * channelStride }

    /// Lane of a header field.
    @inlinable public func lane(_ field: Header) -> Int { field.rawValue }
    /// Lane of the overall (channel-averaged) z-score of a band.
    @inlinable public func overallZLane(band: Int) -> Int { Self.headerCount + band }
    /// Lane of a channel's zone.
    @inlinable public func zoneLane(channel: Int) -> Int { channelBase(channel) }
    /// Lane of a channel's percent.
    @inlinable public func percentLane(channel: Int) -> Int { channelBase(channel) + 1 }
    /// Lane of a channel's z-score in a band.
    @inlinable public func zLane(channel: Int, band: Int) -> Int { channelBase(channel) + 2 + band }

    @inlinable func channelBase(_ channel: Int) -> Int { Self.headerCount + bandCount + channel * channelStride }
}
