import Foundation

/// A `cacheEntry` row as column values: the prompts' JSON is encoded before the write.
struct CacheEntryRow {
    let key: String
    let prompts: String
    let createdAt: Double
    let expiresAt: Double

    init(_ entry: CacheEntry, at date: Date) {
        key = entry.key
        prompts = ValidPrompt.jsonColumn(entry.prompts)
        createdAt = date.timeIntervalSince1970
        expiresAt = entry.expiresAt.timeIntervalSince1970
    }
}
