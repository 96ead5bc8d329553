import Foundation
import GRDB
import Synchronization

/// Refuses every commit once the path no longer names the file the store opened: an unlinked file stays writable
/// through SQLite's descriptors, so commits would succeed and the next start open an empty file without them. One
/// `stat` before each commit (per batch) makes that a `503 store_unavailable`, and `/readyz` reports not ready.
final class DatabaseFileGuard: TransactionObserver, Sendable {
    let path: String
    /// The device and inode of the file the store opened, taken when the first connection is prepared.
    private let opened = Mutex<FileIdentity?>(nil)

    private struct FileIdentity: Equatable {
        let device: UInt64
        let inode: UInt64
    }

    init(path: String) {
        self.path = path
    }

    /// Remembers the file's identity the first time; each connection calls it once opened.
    func remember() {
        let now = identity()
        opened.withLock { if $0 == nil { $0 = now } }
    }

    /// Throws when the path no longer names the file that was opened.
    func check() throws {
        let expected = opened.withLock { $0 }
        guard let expected, identity() == expected else { throw StoreError.fileReplaced(path) }
    }

    private func identity() -> FileIdentity? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseWillCommit() throws { try check() }
    func databaseDidCommit(_ db: Database) {}
    func databaseDidRollback(_ db: Database) {}
}
