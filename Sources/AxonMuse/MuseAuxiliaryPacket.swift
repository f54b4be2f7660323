import AxonDevices

/// The Muse's other notifications, as muse-lsl reads them.
///
/// - Telemetry (`273e000b`): uint16 big-endian fields — packet index, battery (raw ÷ 512 = %), fuel gauge
///   (raw × 2.2 = mV), ADC volts (raw), temperature (raw); the rest is padding.
/// - Accelerometer (`273e000a`) and gyroscope (`273e0009`): packet index (uint16) and 3 samples of X, Y, Z as int16,
///   all big-endian; × 0.0000610352 g (accelerometer) or × 0.0074768 °/s (gyroscope). About 52 samples per second.
/// - PPG (Muse 2 / S, `273e000f` ambient, `273e0010` infrared, `273e0011` red): packet index (uint16) and 6 samples
///   as uint24, big-endian, raw counts; 64 samples per second per channel.
///
/// Threading: value types; share freely.
public enum MuseAuxiliaryPacket {
    /// The accelerometer characteristic.
    public static let accelerometer = MuseGATTProfile.uuid(0x000A)
    /// The gyroscope characteristic.
    public static let gyroscope = MuseGATTProfile.uuid(0x0009)
    /// The PPG characteristics: ambient, infrared, red.
    public static let ppg = [MuseGATTProfile.uuid(0x000F), MuseGATTProfile.uuid(0x0010), MuseGATTProfile.uuid(0x0011)]
    /// g per accelerometer count.
    public static let accelerometerScale = 0.0000610352
    /// °/s per gyroscope count.
    public static let gyroscopeScale = 0.0074768

    /// A telemetry notification.
    public struct Telemetry: Sendable, Hashable {
        /// The packet index.
        public var index: UInt16
        /// Battery charge, %.
        public var batteryPercent: Double
        /// Fuel gauge, mV.
        public var fuelGaugeMillivolts: Double
        /// The ADC's voltage reading, raw.
        public var adcVolts: UInt16
        /// Temperature, raw.
        public var temperature: UInt16

        /// Reads a notification of at least 10 bytes; throws ``MuseError/wrongLength(_:)`` if shorter.
        public init(bytes: [UInt8]) throws(MuseError) {
            guard bytes.count >= 10 else { throw .wrongLength(bytes.count) }
            func field(_ i: Int) -> UInt16 { UInt16(bytes[2 * i]) << 8 | UInt16(bytes[2 * i + 1]) }
            index = field(0)
            batteryPercent = Double(field(1)) / 512
            fuelGaugeMillivolts = Double(field(2)) * 2.2
            adcVolts = field(3)
            temperature = field(4)
        }
    }

    /// An accelerometer or gyroscope notification: three (x, y, z) samples in g or °/s.
    public struct Motion: Sendable, Hashable {
        /// The packet index.
        public var index: UInt16
        /// Three samples, each [x, y, z], scaled.
        public var samples: [[Double]]

        /// Reads a 20-byte notification with `scale` per count; throws ``MuseError/wrongLength(_:)`` otherwise.
        public init(bytes: [UInt8], scale: Double) throws(MuseError) {
            guard bytes.count == 20 else { throw .wrongLength(bytes.count) }
            index = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
            samples = (0..<3).map { sample in
                (0..<3).map { axis in
                    let at = 2 + 6 * sample + 2 * axis
                    return Double(Int16(bitPattern: UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]))) * scale
                }
            }
        }
    }

    /// A PPG notification of one channel: six raw 24-bit samples.
    public struct PPG: Sendable, Hashable {
        /// The packet index.
        public var index: UInt16
        /// Six samples, raw counts (0 … 16,777,215).
        public var samples: [UInt32]

        /// Reads a 20-byte notification; throws ``MuseError/wrongLength(_:)`` otherwise.
        public init(bytes: [UInt8]) throws(MuseError) {
            guard bytes.count == 20 else { throw .wrongLength(bytes.count) }
            index = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
            samples = (0..<6).map { k in
                UInt32(bytes[2 + 3 * k]) << 16 | UInt32(bytes[3 + 3 * k]) << 8 | UInt32(bytes[4 + 3 * k])
            }
        }
    }
}
