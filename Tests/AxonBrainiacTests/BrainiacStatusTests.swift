import AxonBrainiac
import Testing

@Suite("BrainiacStatus")
struct BrainiacStatusTests {
    /// The seed's CBManagerMessage enum, in code order.
    static let seedNames = [
        "ScanningStarted", "ScanningStopped", "ConnectingToPeripheral", "ConnectToPeripheralFailed",
        "ConnectToPeripheralSuccessful", "ConnectingToService", "ConnectToServiceFailed",
        "ConnectToServiceSuccessful", "DataTransferStarted", "DataTransferAborted", "DataTransferError",
        "CharacteristicDiscovered", "CharacteristicDiscoveringFailed", "Ready", "UnknownError",
        "PeripheralDisconnected",
    ]

    @Test(arguments: 0..<16)
    func codeMapsToTheSeedName(code: Int) throws {
        let status = try #require(BrainiacStatus(code: code))
        #expect(status.code == code)
        #expect(status.rawValue == UInt8(code))
        #expect(status.vendorName == "CBManagerMessage_" + Self.seedNames[code])
        #expect(!status.message.isEmpty)
        #expect(status.description.hasPrefix("\(code) "))
    }

    @Test func exactlySixteenCodes() {
        #expect(BrainiacStatus.allCases.count == 16)
        #expect(BrainiacStatus.allCases.map(\.code) == Array(0..<16))
        #expect(Set(BrainiacStatus.allCases.map(\.message)).count == 16)
        for code in [-1, 16, 255, 256, 1000] { #expect(BrainiacStatus(code: code) == nil) }
        #expect(BrainiacStatus(rawValue: 16) == nil)
        #expect(BrainiacStatus.allCases.filter(\.isFailure).map(\.code) == [3, 6, 9, 10, 12, 14])
    }
}
