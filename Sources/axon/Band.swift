import ArgumentParser
import AxonBand
import AxonEventStore
import AxonRecording
import AxonStreams
import Foundation

extension Axon {
    /// Iwown smartbands: sync, settings, live heart rate.
    struct Band: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Iwown smartbands (Fit Pro 9614N, Fit Pulse 9615N, Smartee Training 9616N): sync, settings, live heart rate.",
            discussion: "Try them on the simulated band: axon band sync sim:band; axon band hr sim:band.",
            subcommands: [
                BandSync.self, BandRecords.self, BandSet.self, BandSchedules.self, BandHeartRate.self, BandPairing.self,
            ])
    }

    /// `axon band sync DEVICE [--out DB]`.
    struct BandSync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Take every record the band holds into the event store, each stored before it is acknowledged.",
            discussion: """
                The hourly heart-rate auto-sync is switched on first, as the seed's app does with getHRDataOfHours \
                after connecting: a band sends no hourly heart rate before.
                """)

        @OptionGroup var target: BandDeviceOptions

        @Option(help: "The event store (SQLite) to write.")
        var out = "axon-events.sqlite"

        func run() async throws {
            let events = try EventStore(path: out)
            let connection = try await BandConnection.open(target.device, bus: target.bus, store: nil)
            try await connection.session.connect()
            // The band's streams are named after the band itself, so its name and its address reach the same ones.
            let name = await connection.session.waitForDeviceInfo()?.name ?? BandConnection.storeName(target.device)
            let store = try BandRecordStore(store: events, device: name)
            try await connection.session.attach(store)
            let report: BandSyncReport
            do {
                try await connection.session.send(.heartRateAutoSync(true))
                report = try await connection.session.sync()
            } catch {
                await connection.close()
                throw error
            }
            await connection.close()
            print("axon band sync: \(connection.label) → \(out)")
            if let info = report.deviceInfo { print("device: \(info)") }
            if let battery = report.battery { print("battery: \(battery) %") }
            print(report)
            let counts = try store.counts()
            print(
                "stored for \(store.sourceID): "
                    + BandRecordKind.allCases.map { "\($0.word) \(counts[$0] ?? 0)" }.joined(separator: ", "))
        }
    }

    /// `axon band hr DEVICE`.
    struct BandHeartRate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hr",
            abstract: "Live heart rate from the standard Heart Rate Measurement (0x2A37), and what the band pushes meanwhile.",
            discussion: """
                Records the band pushes while it runs (an hour of heart rate or a sport session as it completes, a \
                button press) are printed as they come; they are not stored here, so the next axon band sync stores \
                them.
                """)

        @OptionGroup var target: BandDeviceOptions

        @Option(help: "Stop after this many measurements (0: until interrupted).")
        var count = 10

        @OptionGroup var lsl: LSLOutputOptions

        func run() async throws {
            let outlet = try lsl.outlet(
                StreamDescriptor(
                    name: "Heart rate", contentType: "HeartRate", channels: [ChannelInfo(label: "heart rate", unit: "bpm")],
                    nominalRate: 0, format: .float64, sourceID: "band:\(target.device)/heart-rate"),
                library: lsl.library())
            let connection = try await BandConnection.open(
                target.device, bus: target.bus, store: nil, liveHeartRate: true)
            try await connection.session.connect()
            print("axon band hr: \(connection.label)" + (outlet.map { " → LSL outlet \"\($0.descriptor.name)\"" } ?? ""))
            // What the band pushes meanwhile: presses, an hour of heart rate or a sport session as it completes. Not
            // stored here, so not acknowledged: the next axon band sync stores them.
            let pushed = Task {
                for await record in connection.session.liveRecords {
                    if record.content.isButtonPress {
                        print("button: \(record.content.kind.word) pressed (record \(record.sequence))")
                    } else {
                        print("pushed: \(record.content.kind.word) \(record.content.identity(today: BandDate(Date(), timeZone: .current))) (record \(record.sequence))")
                    }
                }
            }
            defer { pushed.cancel() }
            var received = 0
            for await m in connection.session.heartRate {
                var line = "\(m.beatsPerMinute) bpm"
                line += m.flags & 1 != 0 ? " (16-bit)" : " (8-bit)"
                line += ", contact \(m.sensorContact)"
                if let energy = m.energyExpended { line += ", energy \(energy) kJ" }
                if !m.rrIntervals.isEmpty {
                    line += ", RR " + m.rrIntervals.map { String(format: "%.3f s", $0) }.joined(separator: " ")
                }
                outlet?.publishNow([Double(m.beatsPerMinute)])
                print(line)
                received += 1
                if count > 0, received >= count { break }
            }
            outlet?.finishSending()
            await connection.close()
        }
    }
}
