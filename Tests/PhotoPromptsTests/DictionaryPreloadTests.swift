import Foundation
import PhotoPromptsTestSupport
import PromptDomain
import PromptTemplates
import Testing

@testable import PhotoPrompts

/// The gate's dictionaries open off the request path: at start-up, on a thread of their own.
@Suite("Dictionaries open at start-up, on a thread of their own")
struct DictionaryPreloadTests {
    /// Polls `condition` every 20 ms for up to 20 s (a guard against a hang, not a clock).
    static func eventually(_ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(20)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    @Test("openInBackground returns at once and opens every installed dictionary")
    func opensEveryDictionary() async throws {
        let dictionaries = SpellingDictionaries(hunspellFolder: "/usr/share/hunspell")
        try #require(!dictionaries.languages.isEmpty, "Debian's hunspell-* packages (make deps installs them)")
        #expect(!dictionaries.allOpened, "nothing is opened before it is asked for")
        dictionaries.openInBackground()
        let opened = try await Self.eventually { dictionaries.allOpened }
        #expect(opened)
    }

    @Test("Building the application starts opening the system's dictionaries")
    func buildingTheAppOpensThem() async throws {
        try await withRouterService { client in
            #expect(try await client.send("GET", "/healthz").status == 200)
            let opened = try await Self.eventually { SpellingDictionaries.system.allOpened }
            #expect(opened)
        }
    }
}
