import AxonStreams
import Foundation

extension OBDGateway {
    /// Called when a request on `client` found the link gone: drops the client (once, whoever noticed first),
    /// publishes ``OBDGatewayStatus/linkLost(reason:)`` and, when a favourite is set, starts reconnecting to it.
    func linkLost(_ client: ELM327Client, reason: String) {
        let (wasCurrent, favorite, generation) = state.withLock { state -> (Bool, OBDDevice?, Int) in
            guard state.client === client else { return (false, nil, 0) }
            state.client = nil
            // The polls missed until the dongle is back are one outage in each stream, not lost counter values.
            for registration in state.registrations.values { registration.noteLinkLoss() }
            guard let favorite = state.favorite, !state.reconnecting else { return (true, nil, 0) }
            state.reconnecting = true
            return (true, favorite, state.generation)
        }
        guard wasCurrent else { return }
        client.close()
        statusContinuation.yield(.linkLost(reason: reason))
        if let favorite { startReconnecting(to: favorite, generation: generation) }
    }

    /// Runs ``reconnectLoop(to:generation:)`` on a thread of its own (the caller set `reconnecting`).
    func startReconnecting(to favorite: OBDDevice, generation: Int) {
        Thread.detachNewThread { [self] in reconnectLoop(to: favorite, generation: generation) }
    }

    /// Tries the favourite until it answers, with back-off doubling from ``Configuration/initialBackoff`` to
    /// ``Configuration/maximumBackoff``; stops when the gateway connects, disconnects or forgets in between.
    func reconnectLoop(to favorite: OBDDevice, generation: Int) {
        var attempt = 0
        var backoff = configuration.initialBackoff
        while true {
            let current = state.withLock { state -> Bool in
                let current = state.generation == generation && state.favorite != nil
                if !current { state.reconnecting = false }
                return current
            }
            guard current else { return }
            attempt += 1
            if let (client, device, supported) = try? open(favorite.endpoint) {
                let stillCurrent = state.withLock { state -> Bool in
                    state.reconnecting = false
                    return state.generation == generation
                }
                guard stillCurrent else {
                    client.close()
                    return
                }
                install(client, device: device, supported: supported)
                return
            }
            statusContinuation.yield(.reconnecting(attempt: attempt, retryIn: backoff))
            HostClock.sleep(until: HostClock.now() + backoff)
            backoff = min(backoff * 2, configuration.maximumBackoff)
        }
    }
}
