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

    @Test("openInBackground returns at once and opens the languages asked for, and no other")
    func opensTheLanguagesAskedFor() async throws {
        let dictionaries = SpellingDictionaries.debian()
        let asked: Set<String> = ["en", "es"]
        try #require(asked.isSubset(of: dictionaries.languages), "Debian's hunspell-* packages (make deps installs them)")
        #expect(!dictionaries.allOpened, "nothing is opened before it is asked for")
        #expect(dictionaries.startUp == .notAsked)
        // Two of the smaller ones: each opening is CPU, and the fast layer opens every language once anyway.
        dictionaries.openInBackground(languages: asked)
        let opened = try await Self.eventually { asked.allSatisfy(dictionaries.isOpened) }
        #expect(opened)
        #expect(try await Self.eventually { dictionaries.startUp == .opened }, "the start-up opening says when it is done")
        #expect(dictionaries.languages.filter { !asked.contains($0) }.allSatisfy { !dictionaries.isOpened($0) }, "no other language")
    }

    @Test("Building the application starts opening its own dictionaries, for the languages its backends write; /readyz says when they are open")
    func buildingTheAppOpensThem() async throws {
        // A set of this app's own: the test process's shared one is opened by the test helpers.
        let dictionaries = SpellingDictionaries.debian()
        try #require(dictionaries.languages.contains("es"), "Debian's hunspell-es (make deps installs it)")
        let environment = baseEnvironment().merging(["LLM_LANGUAGES": "es,en"]) { $1 }
        try await withRouterService(environment, dictionaries: dictionaries) { client in
            let health = try await client.send("GET", "/healthz")
            #expect(health.status == 200)
            let opening = try await client.send("GET", "/readyz")
            #expect(opening.status == 200, "opening dictionaries do not make the instance unready")
            #expect(["opening", "open"].contains(opening.lookup["checks", "dictionaries"].string))
            let opened = try await Self.eventually { dictionaries.isOpened("es") && dictionaries.isOpened("en") }
            #expect(opened)
            #expect(!dictionaries.isOpened("ko"), "a language no backend writes is not opened")
            var reported = ""
            for _ in 0..<1000 where reported != "open" {
                reported = try await client.send("GET", "/readyz").lookup["checks", "dictionaries"].string ?? ""
                if reported != "open" { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(reported == "open", "once both are open, /readyz reports it")
        }
    }
}
