// Invalid filter designs and inputs give typed DSPError values naming what was wrong.

import AxonDSP
import Testing

@Suite("Filter design errors")
struct FilterDesignErrorTests {
    /// A design request that must fail, and the error it must fail with.
    struct Case: Sendable, CustomTestStringConvertible {
        enum Request: Sendable {
            case butterworth(order: Int, PassBand, rate: Double)
            case notch(Double, quality: Double, rate: Double)
        }
        let request: Request
        let error: DSPError
        var testDescription: String { "\(request)" }

        func make() throws(DSPError) -> SecondOrderSections {
            switch request {
            case .butterworth(let order, let band, let rate):
                try .butterworth(order: order, band, sampleRate: rate)
            case .notch(let frequency, let quality, let rate):
                try .notch(at: frequency, quality: quality, harmonics: true, sampleRate: rate)
            }
        }
    }

    static let inside = "it must lie in (0, rate/2)"
    static let cases: [Case] = [
        Case(
            request: .butterworth(order: 0, .lowPass(30), rate: 250),
            error: .invalidParameter(name: "filter order", value: 0, requirement: "it must lie in 1…64")),
        Case(
            request: .butterworth(order: 65, .lowPass(30), rate: 250),
            error: .invalidParameter(name: "filter order", value: 65, requirement: "it must lie in 1…64")),
        Case(request: .butterworth(order: 2, .lowPass(30), rate: 0), error: .invalidSampleRate(0)),
        Case(request: .butterworth(order: 2, .lowPass(30), rate: .nan), error: .invalidSampleRate(.nan)),
        Case(
            request: .butterworth(order: 2, .lowPass(0), rate: 250),
            error: .invalidParameter(name: "low-pass cutoff", value: 0, requirement: inside)),
        Case(
            request: .butterworth(order: 2, .lowPass(125), rate: 250),
            error: .invalidParameter(name: "low-pass cutoff", value: 125, requirement: inside)),
        Case(
            request: .butterworth(order: 2, .highPass(-1), rate: 250),
            error: .invalidParameter(name: "high-pass cutoff", value: -1, requirement: inside)),
        Case(
            request: .butterworth(order: 2, .highPass(.infinity), rate: 250),
            error: .invalidParameter(name: "high-pass cutoff", value: .infinity, requirement: inside)),
        Case(
            request: .butterworth(order: 2, .bandPass(0, 40), rate: 250),
            error: .invalidParameter(name: "band-pass lower edge", value: 0, requirement: inside)),
        Case(
            request: .butterworth(order: 2, .bandPass(1, 130), rate: 250),
            error: .invalidParameter(name: "band-pass upper edge", value: 130, requirement: inside)),
        Case(
            request: .butterworth(order: 2, .bandPass(40, 40), rate: 250),
            error: .invalidParameter(
                name: "band-pass lower edge", value: 40, requirement: "it must be below the upper edge 40.0")),
        Case(
            request: .butterworth(order: 2, .bandPass(45, 8), rate: 250),
            error: .invalidParameter(
                name: "band-pass lower edge", value: 45, requirement: "it must be below the upper edge 8.0")),
        Case(
            request: .notch(0, quality: 30, rate: 250),
            error: .invalidParameter(name: "notch frequency", value: 0, requirement: inside)),
        Case(
            request: .notch(125, quality: 30, rate: 250),
            error: .invalidParameter(name: "notch frequency", value: 125, requirement: inside)),
        Case(
            request: .notch(50, quality: 0, rate: 250),
            error: .invalidParameter(name: "notch quality factor", value: 0, requirement: "it must be positive")),
        Case(request: .notch(50, quality: 30, rate: -250), error: .invalidSampleRate(-250)),
    ]

    @Test("an invalid design throws the DSPError naming the parameter", arguments: cases)
    func invalidDesign(_ errorCase: Case) {
        do {
            let design = try errorCase.make()
            Issue.record("designed \(design.sections.count) sections; expected \(errorCase.error)")
        } catch {
            // NaN never equals itself, so a NaN rate is compared by its case.
            if case .invalidSampleRate(let rate) = errorCase.error, rate.isNaN {
                guard case .invalidSampleRate(let thrown) = error else {
                    Issue.record("threw \(error)")
                    return
                }
                #expect(thrown.isNaN)
            } else {
                #expect(error == errorCase.error, "\(error.description)")
            }
        }
    }

    @Test("zero-phase filtering rejects a signal no longer than the padding, non-finite values and negative padding")
    func zeroPhaseInputs() throws {
        let design = try SecondOrderSections.butterworth(order: 2, .highPass(1), sampleRate: 250)
        #expect(design.defaultPadLength == 9)
        #expect(throws: DSPError.insufficientData(count: 9, minimum: 10)) {
            try design.zeroPhaseFiltered([Double](repeating: 1, count: 9))
        }
        #expect(throws: DSPError.insufficientData(count: 0, minimum: 1)) {
            try design.zeroPhaseFiltered([], padLength: 0)
        }
        #expect(throws: DSPError.nonFiniteData(count: 2)) {
            try design.zeroPhaseFiltered([1, .nan, 3] + [Double](repeating: 0, count: 20) + [.infinity])
        }
        #expect(
            throws: DSPError.invalidParameter(
                name: "pad length", value: -1, requirement: "it must not be negative")
        ) {
            try design.zeroPhaseFiltered([1, 2, 3], padLength: -1)
        }
        #expect(try design.zeroPhaseFiltered([Double](repeating: 7, count: 10)).allSatisfy { abs($0) < 1e-12 })
    }

    @Test("a filter needs a channel, and designs of different rates do not cascade")
    func filterAndCascadeErrors() throws {
        let design = try SecondOrderSections.notch(at: 50, sampleRate: 250)
        #expect(throws: DSPError.invalidSize(size: 0, minimum: 1)) { try SOSFilter(design, channelCount: 0) }
        let other = try SecondOrderSections.notch(at: 50, sampleRate: 500)
        #expect(
            throws: DSPError.invalidParameter(
                name: "sample rate of the second design", value: 500,
                requirement: "it must equal the first design's 250.0 Hz")
        ) { try design.cascaded(with: other) }
        #expect(throws: DSPError.invalidSize(size: 0, minimum: 1)) {
            try SecondOrderSections(sections: [], sampleRate: 250)
        }
    }
}
