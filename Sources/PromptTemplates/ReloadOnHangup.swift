import ServiceLifecycle
import UnixSignals

/// Reloads the templates on SIGHUP, the Unix convention for "re-read your configuration".
struct ReloadOnHangup: Service {
    let library: TemplateLibrary

    func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            library.reload(trigger: "SIGHUP")
        }
    }
}
