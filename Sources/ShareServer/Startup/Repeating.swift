import ServiceLifecycle

/// Runs `body` now and then every `interval`, until the daemon stops gracefully: between two runs, or cutting one
/// off while it waits.
func repeating(every interval: Duration, _ body: @escaping @Sendable () async throws -> Void) async throws {
    do {
        try await cancelWhenGracefulShutdown {
            while true {
                try await body()
                try await Task.sleep(for: interval)
            }
        }
    } catch is CancellationError {
        // The daemon is stopping.
    }
}
