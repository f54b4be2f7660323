import AxonBluetooth
import AxonDevices
import AxonEventStore
import AxonRecording
import AxonScales
import BlueZTestSupport
import Foundation
import StreamTestSupport
import Testing

/// The iHealth SDK's HSxController through BlueZ: scales found by scanning with their models, the list of connected
/// scales per model (`getAllCurrentHSxInstance`), and the connect and disconnect notifications (`HSxConnectNoti`,
/// `HSxDisConnectNoti`), a link loss included.
@Suite(.enabled(if: BlueZTestBed.available, "needs dbus-daemon, python3-dbus and python3-gi (make test-deps)"), .serialized)
struct ScaleControllerTests {
    @Test("discover, connect three scales, lose and regain one's link, disconnect another")
    func connectedScalesAndNotifications() async throws {
        let bed = try BlueZTestBed(devices: [
            "wss,C0:FF:EE:00:02:10,Scale-0210",
            "hs5,C0:FF:EE:00:02:11,HS5-0211,users=47556360",
            "hs3,C0:FF:EE:00:02:12,HS3-0212,records=120,link_loss_after=60,outage=1",
            "heartrate,C0:FF:EE:00:02:13,Heart-0213",
        ])
        defer { bed.stop() }
        let controller = ScaleController(bluetooth: BlueZTransportFactory(), bus: bed.address)
        let found = try await controller.discover(seconds: 2).sorted { $0.address < $1.address }
        #expect(found.map(\.model) == [.standard, .hs5, .hs3], "\(found)")
        #expect(found.map(\.name) == ["Scale-0210", "HS5-0211", "HS3-0212"])

        var sessions: [ScaleSession] = []
        for scale in found { sessions.append(try await controller.connect(scale)) }
        #expect(controller.current().map(\.device) == ["Scale-0210", "HS5-0211", "HS3-0212"])
        #expect(controller.current(model: .hs5).map(\.device) == ["HS5-0211"])
        #expect(controller.current(model: .hs4).isEmpty)

        // The HS3's link drops after 60 records and comes back: announced both ways, and the transfer completes.
        let hs3 = sessions[2]
        try await hs3.validate(ScaleUserCredentials(userID: "ana@example.org"))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("axon-ctl-\(UUID().uuidString).sqlite")
            .path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let records = try ScaleRecordStore(store: try EventStore(path: path), device: "HS3-0212", model: .hs3)
        let summary = try await hs3.transferMemory(into: records)
        #expect(summary.inserted == 120 && summary.resumptions == 1)

        await controller.disconnect(sessions[1])
        #expect(controller.current(model: .hs5).isEmpty)
        #expect(controller.current().map(\.device) == ["Scale-0210", "HS3-0212"])

        var events: [ScaleConnectionEvent] = []
        for await event in controller.connections {
            events.append(event)
            if events.count == 6 { break }
        }
        #expect(events == [
            .connected(device: "Scale-0210", model: .standard), .connected(device: "HS5-0211", model: .hs5),
            .connected(device: "HS3-0212", model: .hs3), .disconnected(device: "HS3-0212", model: .hs3),
            .connected(device: "HS3-0212", model: .hs3), .disconnected(device: "HS5-0211", model: .hs5),
        ])
        for session in [sessions[0], sessions[2]] { await controller.disconnect(session) }
        #expect(controller.current().isEmpty)
    }
}
