/// Opens once the HTTP server listens; by then every step Hummingbird runs before it (the database's migrations) is done.
///
/// Hummingbird starts the app's services together with the server, so a service whose first step needs the migrated
/// database waits here. One waiter; it also returns when its task is cancelled.
final class ServerListening: Sendable {
    private let (opened, continuation) = AsyncStream.makeStream(of: Void.self)

    /// Called from the application's `onServerRunning`.
    func open() { continuation.finish() }

    func wait() async {
        for await _ in opened {}
    }
}
