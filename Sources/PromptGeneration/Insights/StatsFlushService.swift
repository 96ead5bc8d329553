import Logging
import ServiceLifecycle

/// Writes the ``StatsRecorder``'s counts every `interval`, and once more at shutdown.
package struct StatsFlushService: Service {
    package let recorder: StatsRecorder
    package let interval: Duration
    package let logger: Logger

    package func run() async throws {
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

    package init(recorder: StatsRecorder, interval: Duration, logger: Logger) {
        self.recorder = recorder
        self.interval = interval
        self.logger = logger
    }
}
