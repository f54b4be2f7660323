import Foundation

extension ScaleSession {
    /// Measures: an iHealth model is asked to measure showing `unit`; a standard scale is waited for until
    /// someone steps on it (up to `seconds`). The live weights arrive on ``events`` as they come; the result
    /// holds the stable weight and, from an HS5 or a Body Composition service, impedance weight and body
    /// composition. An iHealth scale measures only for a validated user, as the seed's SDK does (results 1–4 of
    /// ``validate(_:)``): an HS3 or HS4 is refused here before anything is sent, an HS5 measures for the current
    /// user and refuses an unknown one itself.
    ///
    /// - Throws: ``ScaleError/userNotValidated(model:)`` for an HS3 or HS4 before ``validate(_:)`` succeeded;
    ///   ``ScaleError/device(_:)`` for the scale's errors (movement, overload, low battery, …),
    ///   ``ScaleError/noResponse(command:seconds:)``, link errors.
    public func measure(unit: WeightUnit = .kg, seconds: Double = 60) async throws(ScaleError) -> ScaleMeasurement {
        if wire == .standardGATT { return try await measureStandard(unit: unit, seconds: seconds) }
        if model == .hs3 || model == .hs4, validation == nil { throw .userNotValidated(model: model) }
        if wire == .hs3SerialPort { return try await measureSerial(unit: unit, seconds: seconds) }
        let serial = model == .hs5 ? currentUserSerialNumber ?? 0 : 0
        var unstable: [Double] = []
        var stable: Double?
        var impedance: Double?
        inbox.clear()
        try await send(.measure(unit: unit, serialNumber: serial))
        while true {
            guard let item = await inbox.next(within: max(responseTimeout, seconds)) else {
                throw .noResponse(command: "measure", seconds: max(responseTimeout, seconds))
            }
            guard case .response(let response) = item else { continue }
            switch response {
            case .error(let code, let detail, let argument): throw error(code: code, detail: detail, argument: argument)
            case .unstableWeight(let kg): unstable.append(kg)
            case .stableWeight(let kg):
                stable = kg
                if model != .hs5 { return result(kg, unit, unstable) }
            case .impedanceWeight(let kg): impedance = kg
            case .bodyComposition(let composition):
                guard let kg = stable ?? composition.weightKg else { continue }
                var measurement = result(kg, unit, unstable)
                measurement.impedanceWeightKg = impedance
                measurement.bodyComposition = composition
                return measurement
            default: continue
            }
        }
    }

    private func result(_ kg: Double, _ unit: WeightUnit, _ unstable: [Double]) -> ScaleMeasurement {
        ScaleMeasurement(
            stableWeightKg: kg, displayed: WeightConversion.displayed(kilograms: kg, in: unit),
            unstableWeightsKg: unstable, impedanceWeightKg: nil, bodyComposition: nil, time: nil)
    }

    /// The next new weight of an HS3's serial stream since ``connect()`` or the last measurement (a repeat of the
    /// last weight within ``repeatWindow`` is not new).
    private func measureSerial(unit: WeightUnit, seconds: Double) async throws(ScaleError) -> ScaleMeasurement {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0, let item = await inbox.next(within: left) else {
                throw .noResponse(command: "measure (step on the HS3)", seconds: seconds)
            }
            guard case .serialWeight(let record) = item else { continue }
            var measurement = result(record.weightKg, unit, [])
            measurement.time = record.time
            return measurement
        }
    }

    private func measureStandard(unit: WeightUnit, seconds: Double) async throws(ScaleError) -> ScaleMeasurement {
        var composition: BodyCompositionMeasurement?
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0, let item = await inbox.next(within: left) else {
                throw .noResponse(command: "measure (step on the scale)", seconds: seconds)
            }
            switch item {
            case .composition(let c): composition = c
            case .weight(let weight):
                guard let kg = weight.kilograms else { throw .measurementUnsuccessful }
                // A Body Composition indication that belongs to this weight may follow within a moment.
                if composition == nil, case .composition(let c)? = await inbox.next(within: 1) { composition = c }
                var measurement = result(kg, unit, [])
                measurement.bodyComposition = composition?.bodyComposition(weightKg: kg)
                measurement.time = weight.timestamp?.unixTime
                return measurement
            default: continue
            }
        }
    }
}
