import ArgumentParser
import AxonBand
import AxonEventStore
import AxonRecording
import Foundation

extension Axon {
    /// `axon band schedules DEVICE [--out DB] [--date YYYY-MM-DD] [--json]`: the schedules the band holds, read from
    /// the band itself (whoever wrote them), with each day's used and free slots.
    struct BandSchedules: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "schedules",
            abstract: "Read the schedules the band holds — another phone's too — and each day's used and free slots.",
            discussion: """
                What the band holds is stored in the event store (--out), so axon band set schedule checks its rules \
                against it and --close works on a schedule another phone wrote. --json prints {"device", "held", \
                "schedules": [{"slot", "date", "time", "title", "subtitle"}…], "days": [{"date", "used", "free"}…]}.
                """)

        @OptionGroup var target: BandSetTarget

        @Option(help: "Also a day without schedules: its used and free slots (YYYY-MM-DD).")
        var date: String?

        @Flag(help: "Print JSON instead of text.")
        var json = false

        func run() async throws {
            var extra: BandDate?
            if let date {
                let d = date.split(separator: "-").compactMap { Int($0) }
                guard d.count == 3, let day = BandDate(year: d[0], month: d[1], day: d[2]) else {
                    throw ValidationError("--date is YYYY-MM-DD")
                }
                extra = day
            }
            let events = try EventStore(path: target.out)
            let connection = try await BandConnection.open(target.band.device, bus: target.band.bus, store: nil)
            let name: String
            let book: BandScheduleBook
            var days: [BandScheduleInfo] = []
            do {
                try await connection.session.connect()
                name = await connection.session.waitForDeviceInfo()?.name ?? BandConnection.storeName(target.band.device)
                try await connection.session.attach(try BandRecordStore(store: events, device: name))
                // sim:band is made anew by each command: it holds what the store says the band holds.
                if let band = connection.simulated { band.restoreSchedules(await connection.session.schedules) }
                book = try await connection.session.readSchedules()
                let dates = Set(book.schedules.values.compactMap(\.date)).union(extra.map { [$0] } ?? [])
                for day in dates.sorted() { days.append(try await connection.session.readScheduleInfo(on: day)) }
            } catch {
                await connection.close()
                throw error
            }
            await connection.close()
            let ordered = book.schedules.keys.sorted().map { book.schedules[$0]! }
            if json {
                print(
                    try StoredRecordsOutput.json(
                        Output(
                            device: name, held: ordered.count, schedules: ordered.map(Output.Entry.init),
                            days: days.map { .init(date: "\($0.date)", used: $0.used, free: $0.free) })))
                return
            }
            print("axon band schedules: \(connection.label) holds \(ordered.count)")
            for s in ordered { print("\(s.slot)  \(s.title)" + (s.subtitle.isEmpty ? "" : " — \(s.subtitle)")) }
            for day in days { print("\(day.date): \(day.used) used, \(day.free) free") }
        }

        /// `--json`'s object.
        struct Output: Encodable {
            struct Entry: Encodable {
                let slot: String, date: String, time: String, title: String, subtitle: String
                init(_ s: BandSchedule) {
                    slot = s.slot
                    date = String(s.slot.prefix(10))
                    time = String(s.slot.suffix(5))
                    title = s.title
                    subtitle = s.subtitle
                }
            }
            struct Day: Encodable { let date: String, used: Int, free: Int }
            let device: String
            let held: Int
            let schedules: [Entry]
            let days: [Day]
        }
    }
}
