import Foundation
import Logging
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptDomain
import PromptTemplates
import Testing

@Suite("Hot reload: a broken edit is refused and the previous version keeps serving")
struct HotReloadRouteTests {
    @Test("A syntax error is refused naming file and line; the old version serves; GET /admin/templates shows both; a fix goes live")
    func brokenThenFixed() async throws {
        let prompts = try TemporaryPrompts()
        let stub = StubBehaviourBackend()
        try await withRouterService(operatorEnvironment(prompts: prompts), backends: [stub]) { client in
            let before = try await client.startSession()

            try prompts.write("photo-journal/user.mustache", brokenUserPart)
            let refused = try await client.admin("POST", "/templates/reload")
            #expect(refused.status == 422)
            #expect(refused.errorCode == "template_rejected")
            #expect(refused.errorDetails == ["photo-journal/user.mustache:3"])

            let status = try await client.admin("GET", "/templates").lookup
            #expect(status["live", "variants", 0, "version"].string == before.template.version)
            #expect(status["rejected", "file"].string == "photo-journal/user.mustache")
            #expect(status["rejected", "line"].int == 3)
            #expect(status["rejected", "reason"].string?.contains("Mustache syntax error") == true)
            #expect(status["rejected", "trigger"].string == "admin")
            #expect(status["rejected", "version"].string != before.template.version)

            let during = try await client.startSession(headers: [("Cache-Control", "no-cache")])
            #expect(during.template.version == before.template.version)
            #expect(during.source == .model)

            try prompts.write(
                "photo-journal/user.mustache",
                try String(contentsOfFile: repositoryPromptsDirectory + "/photo-journal/user.mustache", encoding: .utf8) + "\nThank you.\n"
            )
            let accepted = try await client.admin("POST", "/templates/reload")
            #expect(accepted.status == 200)
            #expect(accepted.lookup["outcome"].string == "loaded")
            let after = try await client.startSession()
            #expect(after.template.version != before.template.version)
            #expect(accepted.lookup["versions", "photo-journal"].string == after.template.version)
            #expect(try await client.admin("GET", "/templates").lookup["rejected"].isNull)
        }
    }

    /// Broken edits of every kind the issue names, each with the file the operator must look at.
    static let brokenEdits: [(description: String, path: String, contents: String?, file: String)] = [
        ("a missing part", "photo-journal/system.mustache", nil, "photo-journal/system.mustache"),
        ("settings out of range", "photo-journal/settings.json", #"{"candidate_count": 99}"#, "photo-journal/settings.json"),
        ("a misspelt setting", "photo-journal/settings.json", #"{"candidate_cuont": 6}"#, "photo-journal/settings.json"),
        ("settings that are not JSON", "photo-journal/settings.json", #"{"candidate_count": "#, "photo-journal/settings.json"),
        ("a fallback that fails the word rule", "photo-journal/fallbacks.txt", "What now?\n", "photo-journal/fallbacks.txt"),
        (
            "a variant that does not exist", "photo-journal/settings.json", #"{"variants": {"photo-journal": 50, "nowhere": 50}}"#,
            "photo-journal/settings.json"
        ),
        (
            "a template that renders to nothing", "photo-journal/user.mustache", "{{#photo.caption}}{{photo.caption}}{{/photo.caption}}",
            "photo-journal/user.mustache"
        ),
        ("default fallbacks below three", "copy/en.json", Self.copyFile(fallbacks: ["What happened?", "Why?"]), "copy/en.json"),
        ("the English source copy removed", "copy/en.json", nil, "copy/en.json"),
        ("a translation missing a message", "copy/ja.json", Self.copyFile(dropping: "refresh_limit"), "copy/ja.json"),
        ("a translation with a misspelt key", "copy/de.json", Self.copyFile(renaming: "timeout", to: "time_out"), "copy/de.json"),
        ("a translation that is not JSON", "copy/fr.json", #"{"fallbacks": ["#, "copy/fr.json"),
        ("a translation with an empty message", "copy/es.json", Self.copyFile(message: ""), "copy/es.json"),
        ("a copy file not named by a canonical language tag", "copy/pt_BR.json", Self.copyFile(), "copy/pt_BR.json"),
        ("the old fallbacks.txt put back", "fallbacks.txt", "What happened in this moment?\n", "fallbacks.txt"),
    ]

    /// A copy file: three fallbacks and the three messages, changed as asked.
    static func copyFile(
        fallbacks: [String] = ["Was ist passiert?", "Wie war es?", "Was bleibt?"],
        message: String = "Schreib einfach los!",
        dropping: String? = nil,
        renaming: String? = nil,
        to newName: String = ""
    ) -> String {
        var messages = ["timeout": message, "error": message, "refresh_limit": message]
        if let dropping { messages[dropping] = nil }
        if let renaming { messages[newName] = messages.removeValue(forKey: renaming) }
        let object: [String: Any] = ["fallbacks": fallbacks, "messages": messages]
        return String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    @Test("Every kind of broken edit is refused, the live version keeps answering, and /readyz stays 200 naming it", arguments: 0..<brokenEdits.count)
    func brokenEditKinds(_ index: Int) async throws {
        let edit = Self.brokenEdits[index]
        let prompts = try TemporaryPrompts()
        try await withRouterService(operatorEnvironment(prompts: prompts)) { client in
            let before = try await client.startSession()
            if let contents = edit.contents {
                try prompts.write(edit.path, contents)
            } else {
                try FileManager.default.removeItem(atPath: prompts.directory + "/" + edit.path)
            }
            let refused = try await client.admin("POST", "/templates/reload")
            #expect(refused.status == 422, "\(edit.description)")
            #expect(refused.errorDetails.first?.hasPrefix(edit.file) == true, "\(edit.description): \(refused.errorDetails)")
            let during = try await client.startSession(headers: [("Cache-Control", "no-cache")])
            #expect(during.template.version == before.template.version, "\(edit.description)")
            // The live version still serves: readiness reports it, and is not 503 for a refused edit.
            let ready = try await client.send("GET", "/readyz")
            #expect(ready.status == 200, "\(edit.description)")
            #expect(ready.lookup["checks", "templates"].string?.contains(before.template.version) == true, "\(edit.description)")
        }
    }

    @Test("The watcher picks up an edit on its own, and refuses a broken one the same way")
    func watcherReloads() async throws {
        let prompts = try TemporaryPrompts()
        var environment = operatorEnvironment(prompts: prompts)
        environment["PROMPTS_WATCH_INTERVAL"] = "0.05"
        try await withRouterService(environment) { client in
            let before = try await client.admin("GET", "/templates").lookup["live", "variants", 0, "version"].string
            try prompts.write("photo-journal/system.mustache", try prompts.read("photo-journal/system.mustache") + "\nBe brief.\n")
            let changed = try await Self.poll(client) { $0["live", "variants", 0, "version"].string != before }
            #expect(changed["rejected"].isNull)

            try prompts.write("photo-journal/user.mustache", brokenUserPart)
            let refused = try await Self.poll(client) { !$0["rejected"].isNull }
            #expect(refused["rejected", "trigger"].string == "file change")
            #expect(refused["rejected", "line"].int == 3)
            #expect(refused["live", "variants", 0, "version"].string == changed["live", "variants", 0, "version"].string)
        }
    }

    @Test("An edit made after the templates loaded but before the watcher started is still picked up")
    func editBeforeTheWatcherStarts() async throws {
        let prompts = try TemporaryPrompts()
        let library = try TemplateLibrary(
            name: "photo-journal",
            directory: prompts.directory,
            dictionaries: testDictionaries,
            clock: SystemWallClock(),
            logger: Logger(label: "test")
        )
        let watcher = TemplateWatcher(library: library, interval: .milliseconds(20))
        let loaded = library.live.versions
        try prompts.write("photo-journal/system.mustache", try prompts.read("photo-journal/system.mustache") + "\nBe brief.\n")
        let watching = Task { try await watcher.run() }
        defer { watching.cancel() }
        for _ in 0..<250 where library.live.versions == loaded { try await Task.sleep(for: .milliseconds(20)) }
        #expect(library.live.versions != loaded, "the edit was loaded")
    }

    @Test("Requests racing reloads each see one whole version: the prompt rendered always matches the version named")
    func noHalfLoadedTemplate() async throws {
        let prompts = try TemporaryPrompts()
        // With `echo` the stub answers with the user message, so the one 8–15-word line in it, the marker question,
        // comes back as a prompt and shows which user part rendered the request.
        try prompts.write("photo-journal/user.mustache", Self.markedUserPart("alpha"))
        try prompts.write("photo-journal/fallbacks.txt", "")
        let stub = StubBehaviourBackend(.echo)
        try await withRouterService(operatorEnvironment(prompts: prompts, base: burstEnvironment()), backends: [stub]) { client in
            let responses: [PromptsResponse] = try await withThrowingTaskGroup(of: PromptsResponse?.self) { group in
                // Reloads at least 12 times and on until the last request is answered (the group then cancels
                // it), so the requests, spread over 1.2 s, meet both versions.
                group.addTask {
                    var round = 0
                    while round < 12 || !Task.isCancelled {
                        try prompts.write("photo-journal/user.mustache", Self.markedUserPart(round.isMultiple(of: 2) ? "beta" : "alpha"))
                        _ = try? await client.admin("POST", "/templates/reload")
                        round += 1
                        // Paced, and the requests spread over 1.2 s, so that on two cores the reloads cannot starve
                        // the requests past their deadline (a 503 now and then in the full fast layer), and a slow
                        // reload still leaves several of them inside the requests' span.
                        try? await Task.sleep(for: .milliseconds(10))
                    }
                    return nil
                }
                for index in 0..<60 {
                    group.addTask {
                        try await Task.sleep(for: .milliseconds(20 * index))
                        // A user each: the marker question is every answer's, and one user meets it once.
                        return try await client.asUser("u_race_\(index)").startSession(
                            #"{"photo": {"caption": "race \#(index)"}}"#,
                            headers: [("Cache-Control", "no-cache")]
                        )
                    }
                }
                var answered: [PromptsResponse] = []
                while let next = try await group.next() {
                    guard let next else { continue }
                    answered.append(next)
                    if answered.count == 60 { group.cancelAll() }
                }
                return answered
            }
            var versionsByMarker: [String: Set<String>] = [:]
            for response in responses {
                let modelPrompt = response.prompts.first { $0.source != .fallback }?.text ?? ""
                let marker = ["alpha", "beta"].first { modelPrompt.contains($0) }
                #expect(marker != nil, "a model prompt naming the version that rendered it: \(response.prompts)")
                if let marker { versionsByMarker[marker, default: []].insert(response.template.version) }
            }
            #expect(responses.count == 60)
            #expect(responses.allSatisfy { $0.source == .model })
            #expect(Set(versionsByMarker.keys) == ["alpha", "beta"], "the race happened: requests met both versions")
            #expect(versionsByMarker.values.allSatisfy { $0.count == 1 }, "\(versionsByMarker)")
            let allVersions = versionsByMarker.values.reduce(into: Set<String>()) { $0.formUnion($1) }
            #expect(allVersions.count == versionsByMarker.count)
        }
    }

    /// A user part ending in a question that names `marker`.
    static func markedUserPart(_ marker: String) -> String {
        "<photo>\n{{photo.caption}}\n</photo>\nWhich of these two template versions, \(marker), wrote this question for you?\n"
    }

    /// Reads `GET /admin/templates` until `condition` holds, for at most five seconds.
    static func poll(_ client: ServiceClient, until condition: @Sendable (JSONLookup) -> Bool) async throws -> JSONLookup {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            let status = try await client.admin("GET", "/templates").lookup
            if condition(status) { return status }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw FixtureError("GET /admin/templates never showed the expected change")
    }
}
