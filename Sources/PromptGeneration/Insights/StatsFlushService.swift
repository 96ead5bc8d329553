import Logging
import ServiceLifecycle

/// Writes the ``StatsRecorder``'s counts every `interval`, and once more at shutdown.
struct StatsFlushService: Service {
    let recorder: StatsRecorder
    let interval: Duration
    let logger: Logger

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            await flush()
        }
    }

    private func flush() async {
        do {
            try await recorder.flush()
        } catch {
            logger.error("writing template stats failed; will retry", metadata: ["error": "\(error)"])
        }
    }
}
