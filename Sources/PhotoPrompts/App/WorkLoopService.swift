import PromptDomain
import ServiceLifecycle

/// Serves a ``WorkLoop`` (the deadline watch, SQLite's write batcher) in one of the service group's tasks until
/// graceful shutdown; after that the loop runs its passes in tasks of their own, for whatever work is left.
struct WorkLoopService: Service {
    let loop: WorkLoop

    func run() async throws {
        await cancelWhenGracefulShutdown { await loop.serve() }
    }
}
