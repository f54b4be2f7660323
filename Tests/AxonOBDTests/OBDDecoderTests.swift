import AxonOBD
import Testing

@Suite("SAE J1979 decoding: formulas, supported-PID bitmaps, trouble codes")
struct OBDDecoderTests {
    @Test(
        "each standard PID's formula",
        arguments: [
            (OBDStandardPID.engineLoad, [0xFF], 100.0),
            (.engineLoad, [0x80], 128 * 100 / 255.0),
            (.coolantTemperature, [0x5F], 55),
            (.coolantTemperature, [0x00], -40),
            (.manifoldPressure, [0x26], 38),
            (.engineSpeed, [0x1A, 0xF8], 1726),
            (.engineSpeed, [0x14, 0x5F], (256 * 0x14 + 0x5F) / 4.0),
            (.vehicleSpeed, [0x37], 55),
            (.intakeTemperature, [0x39], 17),
            (.massAirFlow, [0x18, 0x1F], (256 * 0x18 + 0x1F) / 100.0),
            (.throttlePosition, [0x2B], 43 * 100 / 255.0),
            (.runTime, [0x00, 0x75], 117),
            (.fuelLevel, [0xAA], 170 * 100 / 255.0),
            (.ambientTemperature, [0x43], 27),
            (.oilTemperature, [0x7B], 83),
        ] as [(OBDStandardPID, [UInt8], Double)])
    func formula(pid: OBDStandardPID, data: [UInt8], expected: Double) {
        #expect(abs(pid.decode(data) - expected) < 1e-9)
    }

    @Test("supported-PID bitmap: bit 7 of A is base + 1, bit 0 of D is base + 0x20")
    func bitmap() {
        // The emulator's car answers 41 00 BE 3F A8 13.
        let pids = OBDDecoder.supportedPIDs(base: 0x00, data: [0xBE, 0x3F, 0xA8, 0x13])
        #expect(
            pids == [
                0x01, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x13, 0x15,
                0x1C, 0x1F, 0x20,
            ])
        #expect(OBDDecoder.supportedPIDs(base: 0xE0, data: [0, 0, 0, 0x01]).isEmpty)  // 0x100 does not exist
        #expect(OBDDecoder.supportedPIDs(base: 0x40, data: [0, 0, 0, 0x10]) == [0x5C])
    }

    @Test("trouble codes: letter from the top two bits, then four digits")
    func troubleCodes() throws {
        #expect(OBDDecoder.troubleCode(0x01, 0x33) == "P0133")
        #expect(OBDDecoder.troubleCode(0x41, 0x23) == "C0123")
        #expect(OBDDecoder.troubleCode(0x92, 0x34) == "B1234")
        #expect(OBDDecoder.troubleCode(0xC1, 0x00) == "U0100")
        #expect(try OBDDecoder.troubleCodes([[0x43, 0x01, 0x33, 0x00, 0x00]]) == ["P0133"])
        #expect(try OBDDecoder.troubleCodes([[0x43, 0x02, 0x01, 0x33, 0xC1, 0x00]]) == ["P0133", "U0100"])  // CAN count
        #expect(try OBDDecoder.troubleCodes([[0x43, 0x00]]) == [])
    }

    @Test("PIDs by name, hex and the seed's numbers; custom PIDs from 256")
    func pidParsing() {
        #expect(OBDPID(parsing: "rpm") == .standard(.engineSpeed))
        #expect(OBDPID(parsing: "0x0D") == .standard(.vehicleSpeed))
        #expect(OBDPID(parsing: "47") == .standard(.fuelLevel))
        #expect(OBDPID(parsing: "256") == .custom(.vin))
        #expect(OBDPID(parsing: "dtc_list") == .custom(.troubleCodes))
        #expect(OBDPID(parsing: "0x21") == .undecoded(0x21))
        #expect(OBDPID(parsing: "999") == nil)
        #expect(OBDPID(parsing: "banana") == nil)
    }

    @Test("fuel economy from MAF and speed")
    func fuelEconomy() throws {
        // 10 g/s of air at 100 km/h: 10 / 14.7 / 745 × 3600 = 3.287 L/h → 3.287 L/100 km.
        let economy = try #require(OBDCustomPID.fuelEconomy(maf: 10, speed: 100))
        #expect(abs(economy - 10 / 14.7 / 745 * 3600) < 1e-9)
        #expect(OBDCustomPID.fuelEconomy(maf: 10, speed: 0) == nil)
    }
}
