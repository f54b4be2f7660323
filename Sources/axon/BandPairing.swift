import ArgumentParser
import AxonBand

extension Axon {
    /// `axon band pairing DEVICE [--bind | --debind]`.
    struct BandPairing: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pairing",
            abstract: "Whether the band is bound (paired through BlueZ: the SDK's isBinded); --bind pairs, --debind forgets it.")

        @OptionGroup var target: BandDeviceOptions

        @Flag(help: "Pair with the band (BlueZ's Device1.Pair).")
        var bind = false

        @Flag(help: "Forget the band (the SDK's debind: BlueZ's Adapter1.RemoveDevice drops the pairing).")
        var debind = false

        func validate() throws {
            if bind && debind { throw ValidationError("give --bind or --debind, not both") }
        }

        func run() async throws {
            let connection = try await BandConnection.open(target.device, bus: target.bus, store: nil)
            do {
                try await connection.session.connect()
                if bind { try await connection.session.bind() }
                if debind {
                    try await connection.session.debind()
                    await connection.close()
                    print("axon band pairing: \(connection.label) forgotten: bound no")
                    return
                }
                guard let bound = await connection.session.isBound() else {
                    throw BandError.pairingUnavailable(transport: connection.label)
                }
                print("axon band pairing: \(connection.label) bound \(bound ? "yes" : "no")")
            } catch {
                await connection.close()
                throw error
            }
            await connection.close()
        }
    }
}
