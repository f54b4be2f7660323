// AxonScales — the scales in range and those connected, as the iHealth SDK's HSxController keeps them.

import AxonDevices
import AxonStreams
import Foundation

/// The iHealth SDK's `HS3Controller`/`HS4Controller`/`HS5Controller` in one: finds scales by scanning, with each
/// one's model from its advertisement (``ScaleModel/advertised(name:services:)``), connects sessions to them, keeps
/// the list of connected scales (`getAllCurrentHSxInstance`) and announces each connection and disconnection
/// (`HSxConnectNoti`, `HSxDisConnectNoti`) on ``connections``.
///
///     let controller = ScaleController(bluetooth: BlueZTransportFactory())
///     for scale in try await controller.discover(seconds: 5) {          // [HS5-0011: hs5, Scale-0010: standard]
///         _ = try await controller.connect(scale)
///     }
///     let hs5s = controller.current(model: .hs5)                         // getAllCurrentHS5Instance
///     for await event in controller.connections { print(event) }        // connected / disconnected, per device
///
/// A scale whose link drops leaves ``current(model:)`` and is announced disconnected; when its transport brings it
/// back it is current and announced connected again; ``disconnect(_:)`` closes its session and forgets it.
///
/// Threading: `Sendable`; every method from any task. The Bluetooth stack's blocking calls (a scan, opening a bus
/// connection) run on a thread of their own, not Swift's cooperative pool. ``connections`` has one consumer.
public final class ScaleController: Sendable {
    /// The Bluetooth stack's transports and discovery (`AxonBluetooth.BlueZTransportFactory` for BlueZ).
    public let bluetooth: any DeviceTransportFactory & DeviceDiscovery
    /// Where the stack is reached (for BlueZ a D-Bus address); `nil`: the system's.
    public let bus: String?
    /// Connections and disconnections of the scales this controller connected, oldest first.
    public let connections: AsyncStream<ScaleConnectionEvent>

    private let validator: any UserValidator
    private let continuation: AsyncStream<ScaleConnectionEvent>.Continuation
    private let scales = ThreadLocked<[Int: Entry]>([:])
    private let nextKey = ThreadLocked(0)

    private struct Entry {
        let session: ScaleSession
        var isConnected: Bool
    }

    /// A controller over `bluetooth`; sessions validate users with `validator`.
    public init(
        bluetooth: any DeviceTransportFactory & DeviceDiscovery, bus: String? = nil,
        validator: any UserValidator = LocalUserValidator()
    ) {
        self.bluetooth = bluetooth
        self.bus = bus
        self.validator = validator
        (connections, continuation) = AsyncStream.makeStream(
            of: ScaleConnectionEvent.self, bufferingPolicy: .bufferingNewest(1024))
    }

    deinit { continuation.finish() }

    /// The scales advertising a standard scale's or Axon's iHealth service within `seconds`, with their models;
    /// a device whose model its advertisement does not tell is left out.
    ///
    /// - Throws: ``ScaleError/transport(_:)`` when the stack cannot scan.
    public func discover(seconds: Double) async throws(ScaleError) -> [DiscoveredScale] {
        let (bluetooth, bus) = (bluetooth, bus)
        let services = [ScaleGATT.service, ScaleGATT.weightScaleService, ScaleGATT.bodyCompositionService]
        let found = try await Self.offPool { () throws(TransportError) in
            try bluetooth.discover(services: services, bus: bus, seconds: seconds)
        }
        return found.compactMap { device in
            ScaleModel.advertised(name: device.name, services: device.serviceUUIDs).map {
                DiscoveredScale(address: device.address, name: device.name, model: $0, rssi: device.rssi)
            }
        }
    }

    /// Connects a session to `scale` (``ScaleSession/connect()``: for an iHealth model the scale confirms its
    /// model), adds it to the connected scales and announces it.
    ///
    /// - Throws: ``ScaleError`` from the stack or the session; nothing is added then.
    public func connect(
        _ scale: DiscoveredScale, recordStore: ScaleRecordStore? = nil, openTimeout: Double = 20
    ) async throws(ScaleError) -> ScaleSession {
        let (bluetooth, bus) = (bluetooth, bus)
        let service = scale.model == .standard ? ScaleGATT.weightScaleService : ScaleGATT.service
        let transport = try await Self.offPool { () throws(TransportError) in
            try bluetooth.makeTransport(
                device: scale.address, bus: bus, discovering: [service], connectTimeout: 5, openTimeout: openTimeout)
        }
        let key = nextKey.withLock { key in
            defer { key += 1 }
            return key
        }
        let session = ScaleSession(
            transport: transport, model: scale.model, device: scale.name ?? scale.address, validator: validator,
            recordStore: recordStore, linkObserver: { [weak self] event in self?.link(event, of: key) })
        scales.withLock { $0[key] = Entry(session: session, isConnected: false) }
        do throws(ScaleError) {
            try await session.connect()
        } catch {
            scales.withLock { _ = $0.removeValue(forKey: key) }
            await session.close()
            throw error
        }
        mark(key, connected: true)
        return session
    }

    /// The connected scales, of one model or all (`getAllCurrentHSxInstance`), in the order they were connected.
    public func current(model: ScaleModel? = nil) -> [ScaleSession] {
        scales.withLock { scales in
            scales.keys.sorted().compactMap { key in
                guard let entry = scales[key], entry.isConnected, model.map({ entry.session.model == $0 }) ?? true
                else { return nil }
                return entry.session
            }
        }
    }

    /// Closes `session`, announces its disconnection if it was connected, and forgets it.
    public func disconnect(_ session: ScaleSession) async {
        await session.close()
        let key = scales.withLock { scales in scales.first { $0.value.session === session }?.key }
        if let key {
            mark(key, connected: false)
            scales.withLock { _ = $0.removeValue(forKey: key) }
        }
    }

    /// A link event of the scale under `key` (the transport's delivery thread).
    private func link(_ event: LinkEvent, of key: Int) {
        switch event {
        case .linkLost, .serviceVanished, .closed: mark(key, connected: false)
        // `ready` comes again after a reconnection; the first is `connect`'s to announce, once the model is known.
        case .ready where scales.withLock({ $0[key]?.session.firmware != nil || $0[key]?.session.wire != .axonFraming }):
            mark(key, connected: true)
        default: break
        }
    }

    /// Sets the scale's state and announces a change.
    private func mark(_ key: Int, connected: Bool) {
        let changed = scales.withLock { scales -> ScaleSession? in
            guard var entry = scales[key], entry.isConnected != connected else { return nil }
            entry.isConnected = connected
            scales[key] = entry
            return entry.session
        }
        guard let session = changed else { return }
        continuation.yield(
            connected
                ? .connected(device: session.device, model: session.model)
                : .disconnected(device: session.device, model: session.model))
    }

    /// Runs a blocking call of the stack on a thread of its own and hands back its result.
    private static func offPool<T: Sendable>(
        _ body: @escaping @Sendable () throws(TransportError) -> T
    ) async throws(ScaleError) -> T {
        let result: Result<T, TransportError> = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: Result { () throws(TransportError) in try body() })
            }
        }
        return try result.mapError { ScaleError.transport($0) }.get()
    }
}

/// A scale a scan found, with the model its advertisement tells.
///
/// Threading: a value type; share freely.
public struct DiscoveredScale: Sendable, Hashable {
    /// The address the Bluetooth stack knows it by.
    public var address: String
    /// Its advertised name, when it has one.
    public var name: String?
    /// Its model.
    public var model: ScaleModel
    /// Received signal strength in dBm, when the stack reports one.
    public var rssi: Int?

    /// Creates a description of a found scale.
    public init(address: String, name: String?, model: ScaleModel, rssi: Int?) {
        self.address = address
        self.name = name
        self.model = model
        self.rssi = rssi
    }
}

/// A connection or disconnection ``ScaleController`` announces (the seed's `HSxConnectNoti`, `HSxDisConnectNoti`).
///
/// Threading: a value type; share freely.
public enum ScaleConnectionEvent: Sendable, Hashable {
    /// The scale is connected and current (`device`: its name, or its address).
    case connected(device: String, model: ScaleModel)
    /// The scale's link dropped or was closed; it is no longer current.
    case disconnected(device: String, model: ScaleModel)
}
