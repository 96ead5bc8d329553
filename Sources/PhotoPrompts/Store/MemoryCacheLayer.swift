import Foundation
import Synchronization

/// The most recently written or read cache entries, in memory, in front of SQLite.
///
/// A cache hit is the hottest path; answering it from memory skips a database read, a thread hop and a JSON decode.
/// Entries are immutable per key (the key hashes every input), so the only staleness is expiry, which is checked
/// on every read. Bounded: when full, an arbitrary entry makes room (cheap, and a miss only costs one SQLite read).
final class MemoryCacheLayer: Sendable {
    private struct Entry {
        var prompts: [ValidPrompt]
        var expiresAt: Date
    }

    private let entries = Mutex<[String: Entry]>([:])
    private let capacity: Int

    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    /// The prompts under `key` unless absent or expired at `now`.
    func prompts(forKey key: String, now: Date) -> [ValidPrompt]? {
        entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard entry.expiresAt > now else {
                entries[key] = nil
                return nil
            }
            return entry.prompts
        }
    }

    /// Remembers `prompts` under `key` until `expiresAt`.
    func store(_ prompts: [ValidPrompt], forKey key: String, expiresAt: Date) {
        entries.withLock { entries in
            if entries.count >= capacity, entries[key] == nil, let victim = entries.keys.first {
                entries[victim] = nil
            }
            entries[key] = Entry(prompts: prompts, expiresAt: expiresAt)
        }
    }

    /// Forgets every entry that expired before `now`.
    func removeExpired(now: Date) {
        entries.withLock { entries in
            entries = entries.filter { $0.value.expiresAt > now }
        }
    }
}
