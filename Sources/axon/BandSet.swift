import ArgumentParser
import AxonBand
import AxonEventStore
import AxonRecording
import Foundation

extension Axon {
    /// `axon band set alarm|sedentary|schedule|targets|options|personal …`.
    struct BandSet: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Send a setting to the band, validated against the SDK's limits first.",
            subcommands: [
                Alarm.self, Sedentary.self, Schedule.self, Targets.self, Options.self, Personal.self, Push.self,
                Camera.self, AutoSync.self, Reset.self,
            ])

        /// Sends `command` and prints the frame and the band's answer. The band's schedules are read from the event
        /// store first and stored again after an accepted change, so `--close` works on a schedule an earlier command
        /// wrote; `sim:band`, made anew by each command, gets them back as a real band keeps them.
        static func send(_ command: BandCommand, to target: BandSetTarget) async throws {
            let events = try EventStore(path: target.out)
            let connection = try await BandConnection.open(target.band.device, bus: target.band.bus, store: nil)
            do {
                try await connection.session.connect()
                // Named as axon band sync names the band's streams: after the band's own name.
                let name =
                    await connection.session.waitForDeviceInfo()?.name ?? BandConnection.storeName(target.band.device)
                try await connection.session.attach(try BandRecordStore(store: events, device: name))
                if let band = connection.simulated { band.restoreSchedules(await connection.session.schedules) }
                try await connection.session.send(command)
            } catch {
                await connection.close()
                throw error
            }
            await connection.close()
            print(
                "sent \(command.bytes.map { String(format: "%02X", $0) }.joined(separator: " ")) to \(connection.label): accepted"
            )
        }

        static func week(_ text: String) throws -> WeekRepeat {
            guard let week = WeekRepeat(parsing: text) else {
                throw ValidationError(
                    "--days takes mon,tue,…,sun, weekdays, weekend, daily, repeat, or a byte like 0xFC")
            }
            return week
        }

        static func clock(_ text: String) throws -> (Int, Int) {
            let parts = text.split(separator: ":").compactMap { Int($0) }
            guard parts.count == 2 else { throw ValidationError("time is HH:MM") }
            return (parts[0], parts[1])
        }

        struct Alarm: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "One of the 8 alarms (id 0–7).")
            @OptionGroup var target: BandSetTarget
            @Option(help: "Alarm id, 0–7.") var id: Int
            @Option(help: "HH:MM.") var time: String
            @Option(help: "Days, e.g. repeat,mon,tue (repeat: every week; none: a switched-off alarm).") var days =
                "repeat,daily"
            @Flag(help: "Switch the alarm off.") var off = false
            func run() async throws {
                let (hour, minute) = try BandSet.clock(time)
                let week = days == "none" ? WeekRepeat() : try BandSet.week(days)
                try await BandSet.send(
                    .alarm(
                        BandAlarm(id: id, hour: hour, minute: minute, weekRepeat: week, switchOn: !off, viable: !off)),
                    to: target)
            }
        }

        struct Sedentary: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "The sedentary reminder (the band has one).")
            @OptionGroup var target: BandSetTarget
            @Option(help: "Start hour, 0–23.") var start: Int
            @Option(help: "End hour, 0–23.") var end: Int
            @Option(help: "Days, e.g. repeat,weekdays.") var days = "repeat,weekdays"
            @Flag(help: "Switch it off.") var off = false
            func run() async throws {
                try await BandSet.send(
                    .sedentary(
                        BandSedentaryReminder(
                            startHour: start, endHour: end, weekRepeat: try BandSet.week(days), isOn: !off)), to: target
                )
            }
        }

        struct Schedule: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "A calendar entry (at most 4 a day; title ≤ 20, subtitle ≤ 33 characters).")
            @OptionGroup var target: BandSetTarget
            @Option(help: "YYYY-MM-DD.") var date: String
            @Option(help: "HH:MM.") var time: String
            @Option(help: "The entry's title (needed to write one; --close finds the entry by date and time).")
            var title: String?
            @Option var subtitle = ""
            @Flag(help: "Remove the schedule at that date and time instead.") var close = false

            func validate() throws {
                guard close || title != nil else {
                    throw ValidationError("--title is needed to write a schedule (--close needs only --date and --time)")
                }
            }

            func run() async throws {
                let d = date.split(separator: "-").compactMap { Int($0) }
                guard d.count == 3 else { throw ValidationError("--date is YYYY-MM-DD") }
                let (hour, minute) = try BandSet.clock(time)
                let schedule = BandSchedule(
                    year: d[0], month: d[1], day: d[2], hour: hour, minute: minute, title: title ?? "",
                    subtitle: subtitle)
                try await BandSet.send(close ? .closeSchedule(schedule) : .writeSchedule(schedule), to: target)
            }
        }

        struct Targets: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Active sports and calorie targets (at most 5, walking mandatory, all 7 days).")
            @OptionGroup var target: BandSetTarget
            @Argument(help: "SPORT=CALORIES, e.g. walk=300 swim=450 (names or codes like 0x83).") var targets: [String]
            func run() async throws {
                let parsed = try targets.map { item -> BandSportTarget in
                    let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
                    guard parts.count == 2, let calories = Int(parts[1]) else {
                        throw ValidationError("\(item): SPORT=CALORIES")
                    }
                    let code =
                        parts[0].hasPrefix("0x")
                        ? UInt8(parts[0].dropFirst(2), radix: 16) : BandSport(name: parts[0])?.code
                    guard let code else {
                        throw ValidationError(
                            "unknown sport \(parts[0]); one of: \(BandSport.all.map(\.name).joined(separator: ", "))")
                    }
                    return BandSportTarget(sportCode: code, target: calories)
                }
                try await BandSet.send(.sportTargets(parsed), to: target)
            }
        }

        struct Options: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract:
                    "Units, 12/24 h, auto sleep, backlight hours, background (9616 only), language, LE and wrist switches.")
            @OptionGroup var target: BandSetTarget
            @Flag(help: "Imperial units (default metric).") var imperial = false
            @Flag(help: "12-hour clock (default 24).") var twelveHour = false
            @Flag(help: "No automatic sleep detection.") var noAutoSleep = false
            @Option(help: "Backlight start hour.") var backlightStart = 22
            @Option(help: "Backlight end hour.") var backlightEnd = 6
            @Option(help: "white or black (Smartee Training 9616N only).") var background: String?
            @Flag(help: "Simplified Chinese (default English).") var chinese = false
            @Flag(help: "Turn the seed's leSwitch on (default off).") var leSwitch = false
            @Flag(help: "Turn the seed's wristSwitch off (default on).") var noWristSwitch = false
            func run() async throws {
                let white: Bool? =
                    switch background {
                    case nil: nil;
                    case "white": true;
                    case "black": false;
                    default: throw ValidationError("--background is white or black")
                    }
                try await BandSet.send(
                    .hardwareOptions(
                        BandHardwareOptions(
                            units: imperial ? .imperial : .metric,
                            timeFormat: twelveHour ? .twelveHour : .twentyFourHour,
                            autoSleep: !noAutoSleep, backlightStart: backlightStart, backlightEnd: backlightEnd,
                            whiteBackground: white,
                            language: chinese ? .simplifiedChinese : .english, leSwitch: leSwitch,
                            wristSwitch: !noWristSwitch)), to: target)
            }
        }

        struct Personal: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Gender, height (cm), weight (kg), daily step target, age.")
            @OptionGroup var target: BandSetTarget
            @Option(help: "man or woman.") var gender: String
            @Option var height: Int
            @Option var weight: Int
            @Option(name: .customLong("steps")) var stepTarget: Int
            @Option var age: Int
            func run() async throws {
                guard let g = ["man": BandPersonalInfo.Gender.man, "woman": .woman][gender] else {
                    throw ValidationError("--gender is man or woman")
                }
                try await BandSet.send(
                    .personalInfo(
                        BandPersonalInfo(gender: g, height: height, weight: weight, target: stepTarget, age: age)),
                    to: target)
            }
        }

        struct Push: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Show a text on the band now (1–64 UTF-8 bytes).")
            @OptionGroup var target: BandSetTarget
            @Option var text: String
            func run() async throws { try await BandSet.send(.pushText(text), to: target) }
        }

        struct Camera: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Camera mode: the band's take-picture button on or off.")
            @OptionGroup var target: BandSetTarget
            @Flag(help: "Turn it off.") var off = false
            func run() async throws { try await BandSet.send(.cameraMode(!off), to: target) }
        }

        struct AutoSync: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "autosync", abstract: "Hourly heart-rate or sport-data auto sync on or off.")
            @OptionGroup var target: BandSetTarget
            @Argument(help: "hr or sport.") var what: String
            @Flag(help: "Turn it off.") var off = false
            func run() async throws {
                switch what {
                case "hr": try await BandSet.send(.heartRateAutoSync(!off), to: target)
                case "sport": try await BandSet.send(.sportDataAutoSync(!off), to: target)
                default: throw ValidationError("autosync takes hr or sport")
                }
            }
        }

        struct Reset: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Reset the band.")
            @OptionGroup var target: BandSetTarget
            func run() async throws { try await BandSet.send(.reset, to: target) }
        }
    }
}
