import Foundation
import PromptDomain
import PromptTemplates
import Testing

/// Opens every gate dictionary on a thread of its own before the tests it is applied to, so no test opens one on
/// Swift's cooperative pool.
///
/// Opening a dictionary takes up to a second (Korean). A test that judges a card opens its language's on first use,
/// on the pool thread it runs on; with tests in parallel both of the 2-core machine's pool threads were seen held
/// that way for seconds, and a deadline test that runs alongside missed its 100 ms by 6 s (its watch and its
/// answer both need the pool). The service itself opens them at start-up on a thread, for the same reason.
package struct DictionariesOpened: SuiteTrait, TestTrait, TestScoping {
    package var isRecursive: Bool { false }

    package func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        await Self.openOffThePool()
        try await function()
    }

    /// Opens each of ``testDictionaries`` on a new thread and returns once all are open; at once after the first.
    package static func openOffThePool() async {
        await offThePool {
            let dictionaries = testDictionaries
            for language in dictionaries.languages {
                if let tag = LanguageTag(language) { _ = dictionaries.dictionary(for: tag) }
            }
        }
    }
}

/// Debian's dictionaries, opened once for the whole test process and shared by every test app and gate table: each
/// opening is up to a second of CPU. The service opens its own set in `buildServices`; only a test that checks that
/// opening (``DictionariesOpened`` is not it) hands an app a set of its own.
package let testDictionaries = SpellingDictionaries.debian()

extension Trait where Self == DictionariesOpened {
    /// Every gate dictionary open before the suite runs, off the cooperative pool.
    package static var dictionariesOpened: Self { Self() }
}
