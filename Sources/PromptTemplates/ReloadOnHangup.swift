import ServiceLifecycle
import UnixSignals

/// Reloads the templates on SIGHUP, the Unix convention for "re-read your configuration".
package struct ReloadOnHangup: Service {
    package let library: TemplateLibrary

    package func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            library.reload(trigger: "SIGHUP")
        }
    }

    package init(library: TemplateLibrary) {
        self.library = library
    }
}
