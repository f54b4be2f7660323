import Foundation

/// The Cyton's lead-off impedance measurement, as the OpenBCI GUI makes it.
///
/// The command (OpenBCI's Cyton SDK): `z CHANNEL PCHAN NCHAN Z`, five characters without spaces — `z401Z` turns the
/// test current on for channel 4's N input (`1` applied, `0` not); channels 1–8 are `1`…`8`, the Daisy's 9–16
/// `Q W E R T Y U I`. Not streaming, the board answers `Success: Lead off set for 4$$$`. The ADS1299 then drives a
/// 6 nA AC current (OpenBCI's "31.5 Hz"; the chip's f_CLK / 2¹⁶ = 31.25 Hz) through that electrode, and the channel
/// shows it as a voltage proportional to the electrode's impedance.
///
/// The GUI's formula (`DataProcessing`, `BoardCytonConstants`): impedance = √2 × σ(µV) × 10⁻⁶ / 6 nA − 2.2 kΩ
/// (the series resistor on the board), at least 0, where σ is the channel's standard deviation. √2 × σ is the
/// amplitude of a sine, so Axon takes σ of the 31.25 Hz component alone (its amplitude / √2, one DFT bin over whole
/// cycles), which leaves out the EEG and any offset the GUI's filters may let through.
///
/// Threading: pure functions; use anywhere.
public enum CytonLeadOff {
    /// The lead-off drive current, A.
    public static let driveAmps = 6e-9
    /// The series resistor subtracted, Ω.
    public static let seriesResistorOhms = 2200.0
    /// The drive's frequency, Hz (f_CLK 2.048 MHz / 65536).
    public static let frequency = 31.25

    /// The command turning the test current on (or off) for `channel` (1…16)'s P and N inputs.
    public static func command(channel: Int, p: Bool, n: Bool) throws(CytonError) -> String {
        guard (1...16).contains(channel) else { throw .invalidChannelSettings("channel \(channel) is not 1…16") }
        return "z" + String(CytonChannelSettings.channelCharacters[channel - 1]) + (p ? "1" : "0") + (n ? "1" : "0")
            + "Z"
    }

    /// Parses a command as a board receives it: the channel (1…16) and whether P and N are driven; `nil` if it is
    /// not one.
    public static func parse(_ text: String) -> (channel: Int, p: Bool, n: Bool)? {
        let characters = Array(text)
        guard characters.count == 5, characters[0] == "z", characters[4] == "Z",
            let index = CytonChannelSettings.channelCharacters.firstIndex(of: characters[1]),
            "01".contains(characters[2]), "01".contains(characters[3])
        else { return nil }
        return (index + 1, characters[2] == "1", characters[3] == "1")
    }

    /// The GUI's impedance, Ω, from a channel's σ in µV.
    public static func impedanceOhms(stddevMicrovolts: Double) -> Double {
        max(0, (2.0.squareRoot() * stddevMicrovolts * 1e-6) / driveAmps - seriesResistorOhms)
    }

    /// The amplitude, µV, of the drive's sine across an electrode of `ohms` and the series resistor: what the
    /// GUI's formula turns back into `ohms`.
    public static func amplitudeMicrovolts(electrodeOhms ohms: Double) -> Double {
        driveAmps * (ohms + seriesResistorOhms) * 1e6
    }

    /// σ of the drive's component in `samples` (µV at `sampleRate`): its amplitude from one Hann-windowed DFT bin
    /// at ``frequency`` over the whole cycles the samples hold (the window keeps an alpha rhythm or mains hum from
    /// leaking in), divided by √2. `nil` with less than one cycle.
    public static func componentStddev(_ samples: [Double], sampleRate: Double) -> Double? {
        let perCycle = sampleRate / frequency
        let cycles = (Double(samples.count) / perCycle).rounded(.down)
        let count = Int((cycles * perCycle).rounded(.down))
        guard cycles >= 1, count > 0 else { return nil }
        var re = 0.0
        var im = 0.0
        var weights = 0.0
        let step = 2 * Double.pi * frequency / sampleRate
        for index in 0..<count {
            let weight = 0.5 - 0.5 * cos(2 * Double.pi * Double(index) / Double(count))
            weights += weight
            re += weight * samples[index] * cos(step * Double(index))
            im -= weight * samples[index] * sin(step * Double(index))
        }
        let amplitude = 2 * (re * re + im * im).squareRoot() / weights
        return amplitude / 2.0.squareRoot()
    }
}
