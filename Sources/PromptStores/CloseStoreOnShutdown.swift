import ServiceLifecycle

/// Closes the store when the service shuts down, last of all.
///
/// Hummingbird stops its services in reverse order: the HTTP server first (it finishes the requests in flight),
/// then the services added after this one (the stats flush writes its last counts), and this one last. Closing
/// SQLite checkpoints the WAL, so the file is whole on its own; closing PostgreSQL ends the connection pool.
package struct CloseStoreOnShutdown: Service {
    package let store: any StoreMaintenance

    package func run() async throws {
        // Returns when graceful shutdown begins; if the task is cancelled instead, close all the same.
        try? await gracefulShutdown()
        try await store.close()
    }

    package init(store: any StoreMaintenance) {
        self.store = store
    }
}
