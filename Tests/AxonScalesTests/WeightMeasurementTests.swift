import Testing

@testable import AxonScales

/// Weight Measurement and Weight Scale Feature against hand-computed byte vectors.
struct WeightMeasurementTests {
    @Test(arguments: weightVectors) func everyFlagCombinationDecodes(_ vector: WeightVector) throws {
        let m = try WeightMeasurement(decoding: vector.bytes)
        #expect(m.imperial == vector.imperial)
        #expect(close(m.kilograms, vector.kilograms))
        #expect(m.timestamp?.unixTime == vector.time)
        #expect(m.userID.map(Int.init) == vector.user)
        #expect(close(m.bmi, vector.bmi))
        #expect(close(m.heightMeters, vector.heightMeters))
        #expect(m.bytes == vector.bytes, "encoding gives the same bytes back")
    }

    @Test(arguments: weightVectors) func aByteTooFewOrTooManyIsATypedError(_ vector: WeightVector) {
        let bytes = vector.bytes
        #expect(
            problem { _ = try WeightMeasurement(decoding: Array(bytes.dropLast())) }
                == .tooShort(needed: bytes.count, got: bytes.count - 1))
        #expect(
            problem { _ = try WeightMeasurement(decoding: bytes + [0]) }
                == .tooLong(expected: bytes.count, got: bytes.count + 1))
    }

    @Test func referenceExamples() throws {
        #expect(try WeightMeasurement(decoding: hex("00 A0 3C")).weight == 77.6)
        let pounds = try WeightMeasurement(decoding: hex("01 48 3F"))
        #expect(close(pounds.weight, 162.00))
        #expect(close(pounds.kilograms, 73.48196394))
        let stamped = try WeightMeasurement(decoding: hex("06 A0 3C E9 07 0B 16 08 1E 00 01"))
        #expect(stamped.timestamp == GATTDateTime(year: 2025, month: 11, day: 22, hours: 8, minutes: 30, seconds: 0))
        #expect(stamped.userID == 1)
    }

    @Test func unsuccessfulUnknownAndInvalid() throws {
        let failed = try WeightMeasurement(decoding: hex("00 FF FF"))
        #expect(!failed.isSuccessful && failed.kilograms == nil)
        #expect(try WeightMeasurement(decoding: hex("04 A0 3C FF")).isUnknownUser)
        #expect(problem { _ = try WeightMeasurement(decoding: []) } == .tooShort(needed: 1, got: 0))
        #expect(problem { _ = try WeightMeasurement(decoding: hex("10 A0 3C")) } == .reservedFlags(0x10))
        #expect(
            problem { _ = try WeightMeasurement(decoding: hex("02 A0 3C E9 07 0D 16 08 1E 00")) }
                == .outOfRange("date time 2025-13-22 08:30:00"))
        // An unknown date (year 0) decodes, without a Unix time.
        #expect(try WeightMeasurement(decoding: hex("02 A0 3C 00 00 00 00 00 00 00")).timestamp?.unixTime == nil)
    }

    @Test func featureBits() throws {
        // 0x000001BF: time stamp, multiple users, BMI; weight code 7 (0.005 kg); height code 3 (0.001 m).
        let feature = try WeightScaleFeature(decoding: hex("BF 01 00 00"))
        #expect(feature.timeStampSupported && feature.multipleUsersSupported && feature.bmiSupported)
        #expect(feature.weightResolutionKilograms == 0.005)
        #expect(feature.heightResolutionMeters == 0.001)
        #expect(try WeightScaleFeature(decoding: hex("00 00 00 00")).weightResolutionKilograms == nil)
        #expect(problem { _ = try WeightScaleFeature(decoding: hex("BF 01 00")) } == .tooShort(needed: 4, got: 3))
    }

    @Test func dateTimeRoundTrips() {
        for time in stride(from: 0, to: 4_102_444_800, by: 7_654_321) {
            #expect(GATTDateTime(unixTime: time).unixTime == time)
        }
        #expect(GATTDateTime(unixTime: 1_763_800_200).description == "2025-11-22 08:30:00")
    }
}
