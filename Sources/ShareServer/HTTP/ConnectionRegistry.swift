import Logging
import NIOCore
import Synchronization

/// The open connections, at most `limit` of them. When all places are taken, a new connection takes the place
/// of the one idle the longest (no request in progress: kept alive, or never finished sending one), as nginx
/// reuses its keep-alive connections; only when every connection is busy is the new one turned away. So idle
/// or half-open connections can never use up the file descriptors and keep other clients out.
final class ConnectionRegistry: Sendable {
    private struct Connection {
        let channel: any Channel
        /// When its last request ended (or it opened); nil while a request is in progress.
        var idleSince: ContinuousClock.Instant?
    }

    private struct State {
        var connections: [ObjectIdentifier: Connection] = [:]
        /// Connections closed or turned away since the last log line about the limit.
        var displaced = 0
        var turnedAway = 0
        var lastWarning: ContinuousClock.Instant?
    }

    let limit: Int
    private let logger: Logger
    private let state = Mutex(State())
    /// The limit is logged at most this often, however many connections it affects.
    private static let warningInterval = Duration.seconds(10)

    init(limit: Int, logger: Logger) {
        self.limit = limit
        self.logger = logger
    }

    /// Registers `channel`, closing the connection idle the longest if every place is taken. False when every
    /// open connection is busy: the caller closes `channel`.
    func admit(_ channel: any Channel) -> Bool {
        let now = ContinuousClock.now
        let (admitted, displaced, warning) = state.withLock { state -> (Bool, (any Channel)?, String?) in
            var displaced: (any Channel)?
            if state.connections.count >= limit {
                guard
                    let oldest = state.connections.filter({ $0.value.idleSince != nil })
                        .min(by: { $0.value.idleSince! < $1.value.idleSince! })
                else {
                    state.turnedAway += 1
                    return (false, nil, Self.warning(&state, now: now, limit: limit))
                }
                displaced = state.connections.removeValue(forKey: oldest.key)?.channel
                state.displaced += 1
            }
            state.connections[ObjectIdentifier(channel)] = Connection(channel: channel, idleSince: now)
            return (true, displaced, displaced == nil ? nil : Self.warning(&state, now: now, limit: limit))
        }
        displaced?.close(promise: nil)
        if let warning { logger.warning("\(warning)") }
        return admitted
    }

    /// Marks whether `channel` has a request in progress.
    func setBusy(_ channel: any Channel, _ busy: Bool) {
        state.withLock { $0.connections[ObjectIdentifier(channel)]?.idleSince = busy ? nil : .now }
    }

    func remove(_ channel: any Channel) {
        _ = state.withLock { $0.connections.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// The line to log about the limit, if the last one is old enough; counts start again after it.
    private static func warning(_ state: inout State, now: ContinuousClock.Instant, limit: Int) -> String? {
        if let last = state.lastWarning, last.duration(to: now) < warningInterval { return nil }
        defer { (state.lastWarning, state.displaced, state.turnedAway) = (now, 0, 0) }
        return "connection limit reached (max_connections = \(limit)): closed \(state.displaced) idle connection(s) "
            + "for new ones and turned \(state.turnedAway) away while all were busy"
    }
}
