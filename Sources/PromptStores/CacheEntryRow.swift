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
}
