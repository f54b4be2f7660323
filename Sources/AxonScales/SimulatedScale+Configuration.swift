extension SimulatedScale {
    /// What the simulated scale holds and how it misbehaves.
    ///
    /// Threading: a value type; share freely.
    public struct Configuration: Sendable {
        /// The scale's model.
        public var model: ScaleModel
        /// The firmware version the scale reports.
        public var firmware: FirmwareVersion
        /// The stored records a memory transfer sends (at most 200).
        public var records: [ScaleRecord]
        /// HS5 users.
        public var users: HS5UserTable
        /// What a measurement weighs, kg.
        public var weightKg: Double
        /// What an HS5 (or a standard scale with Body Composition) measures besides weight.
        public var bodyComposition: BodyComposition?
        /// Drop the link once, right after this many records of a memory transfer were sent.
        public var linkLossAfterRecords: Int?
        /// Records whose notification is lost in the air, by index, and how many times it is lost.
        public var lostRecords: [Int: Int]
        /// How long a dropped link stays down, seconds.
        public var outageSeconds: Double
        /// A standard scale: send weights in imperial units (0.01 lb) instead of SI (0.005 kg).
        public var imperial: Bool

        /// Creates a value from its fields (each documented on its property).
        public init(
            model: ScaleModel, firmware: FirmwareVersion = FirmwareVersion(1, 0, 2), records: [ScaleRecord] = [],
            users: HS5UserTable = HS5UserTable(), weightKg: Double = 71.4, bodyComposition: BodyComposition? = nil,
            linkLossAfterRecords: Int? = nil, lostRecords: [Int: Int] = [:], outageSeconds: Double = 0.05,
            imperial: Bool = false
        ) {
            self.lostRecords = lostRecords
            self.model = model
            self.firmware = firmware
            self.records = records
            self.users = users
            self.weightKg = weightKg
            self.bodyComposition = bodyComposition
            self.linkLossAfterRecords = linkLossAfterRecords
            self.outageSeconds = outageSeconds
            self.imperial = imperial
        }

        /// `count` records, one a day at 07:30 UTC from 2025-01-01, weights wandering around 70 kg; with body
        /// composition for an HS5.
        public static func records(_ count: Int, model: ScaleModel) -> [ScaleRecord] {
            let start = 1_735_716_600  // 2025-01-01 07:30:00 UTC
            return (0..<count).map { i in
                let kg = 70 + Double((i * 37) % 41 - 20) / 10
                let composition =
                    model == .hs5
                    ? BodyComposition(
                        weightKg: kg, fatPercent: 22 + Double(i % 7) / 10, waterPercent: 55.1, musclePercent: 38.2,
                        boneMassKg: 2.9, visceralFatLevel: 7, dciKcal: 1850) : nil
                return ScaleRecord(time: start + i * 86_400, weightKg: kg, bodyComposition: composition)
            }
        }

        /// The body composition the simulated HS5 reports for `weightKg`.
        public static func hs5Composition(weightKg: Double) -> BodyComposition {
            BodyComposition(
                weightKg: weightKg, fatPercent: 21.5, waterPercent: 56.3, musclePercent: 39.8, boneMassKg: 3.1,
                visceralFatLevel: 6, dciKcal: 1920, impedanceOhm: 512.3)
        }
    }
}
