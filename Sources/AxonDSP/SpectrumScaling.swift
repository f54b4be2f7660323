// AxonDSP — how one-sided spectra are scaled.

/// How ``SpectrumAnalyzer`` scales its one-sided spectrum.
///
/// With `X[k]` the FFT of the detrended, windowed samples, `S1 = Σ w`, `S2 = Σ w²`, `fs` the sample rate, and
/// `c[k] = 1` for the DC bin and (even `N`) the Nyquist bin, `c[k] = 2` for every other bin (the energy of the
/// mirrored negative frequencies is folded in; DC and Nyquist have no mirror and are not doubled):
///
/// | scaling | bin `k` | unit (input in µV) |
/// |---|---|---|
/// | ``power`` | `c[k] · |X[k]|² / S1²` | µV² |
/// | ``density`` | `c[k] · |X[k]|² / (fs · S2)` | µV²/Hz |
///
/// Threading: a plain value, `Sendable`.
public enum SpectrumScaling: String, Sendable, CaseIterable {
    /// Power spectrum, calibrated for tones: a sine of amplitude `A` exactly at a bin centre reads `A²/2` at that
    /// bin, whatever the window (its coherent gain is divided out). With the rectangular window the bins sum to
    /// the mean square of the input (Parseval).
    case power
    /// Power spectral density, calibrated for noise: bins times the bin width `fs/N` sum to the mean square of the
    /// (windowed, gain-compensated) input, whatever the window.
    case density
}
