import Foundation
import PromptDomain

/// A `cacheEntry` row as column values: the prompts' JSON is encoded before the write.
package struct CacheEntryRow {
    package let key: String
    package let prompts: String
    package let createdAt: Double
    package let expiresAt: Double

    package init(_ entry: CacheEntry, at date: Date) {
        key = entry.key
        prompts = ValidPrompt.jsonColumn(entry.prompts)
        createdAt = date.timeIntervalSince1970
        expiresAt = entry.expiresAt.timeIntervalSince1970
    }

    /// The entry a row read back holds, in either store: its prompts' JSON through the one decoder.
    static func entry(key: String, prompts: String, expiresAt: Double) throws -> CacheEntry {
        CacheEntry(key: key, prompts: try JSONColumn.decode([ValidPrompt].self, prompts), expiresAt: Date(timeIntervalSince1970: expiresAt))
    }
}
