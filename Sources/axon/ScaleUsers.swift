import ArgumentParser
import AxonScales

/// `axon scale users DEVICE list|create|modify|delete …` (HS5).
struct ScaleUsers: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "HS5 users: list, create (position 0…19), modify, delete.",
        discussion: """
            Without --serial the user is the current one (--user's serial number). A simulated HS5 starts with the \
            current user at position 0 and --existing-users more; it forgets them when the command ends.
            """)

    @OptionGroup var scale: ScaleDeviceOptions

    @Argument(help: "list, create, modify or delete.")
    var action: String

    @Option(help: "create: the position, 0…19.")
    var position: Int?

    @Option(help: "The user's serial number (default: the current user's).")
    var serial: UInt32?

    @Option(help: "create/modify: birthday YYYY-MM-DD.")
    var birthday: String = "1990-01-01"

    @Option(help: "create/modify: height in cm.")
    var height: Int = 170

    @Option(help: "create/modify: female or male.")
    var sex: String = "female"

    @Flag(help: "create/modify: the user is an athlete.")
    var athlete = false

    func validate() throws {
        guard ["list", "create", "modify", "delete"].contains(action) else {
            throw ValidationError("the action is list, create, modify or delete")
        }
        if action == "create", position == nil { throw ValidationError("create needs --position 0…19") }
    }

    func run() async throws {
        let open = try await scale.open()
        do {
            try await open.start(scale.credentials)
            let session = open.session
            let serialNumber = serial ?? session.currentUserSerialNumber ?? 0
            print("current user serial number: \(session.currentUserSerialNumber.map(String.init) ?? "–")")
            switch action {
            case "create":
                try await session.createUser(try user(serialNumber), position: position!)
                print("created \(serialNumber) at position \(position!)")
            case "modify":
                try await session.modifyUser(try user(serialNumber))
                print("modified \(serialNumber)")
            case "delete":
                try await session.deleteUser(serialNumber: serialNumber)
                print("deleted \(serialNumber)")
            default: break
            }
            let slots = try await session.users()
            printTable(
                header: ["position", "serial number"], rows: slots.map { ["\($0.position)", "\($0.serialNumber)"] })
            print("\(slots.count) of 20 positions used")
        } catch {
            await open.close()
            throw error
        }
        await open.close()
    }

    private func user(_ serial: UInt32) throws -> HS5User {
        let parts = birthday.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, let sex = HS5User.Sex.allCases.first(where: { "\($0)" == self.sex }) else {
            throw ValidationError("--birthday YYYY-MM-DD and --sex female|male")
        }
        return HS5User(
            serialNumber: serial, birthYear: parts[0], birthMonth: parts[1], birthDay: parts[2], heightCM: height,
            isAthlete: athlete, sex: sex)
    }
}
