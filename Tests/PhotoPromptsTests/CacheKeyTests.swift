import Foundation
import PromptDomain
import PromptGeneration
import PropertyBased
import Testing

@testable import PhotoPrompts

/// LLM gateways are known to serve one request's answer for another when their cache key misses a parameter. These
/// tests change one input at a time and check that the key changes with it, and fail when a new input is added to
/// the key, the photo or its location without being varied here.
@Suite("The cache key covers every input that shapes the model's answer")
struct CacheKeyTests {
    /// The key's inputs, each variable on its own.
    struct Inputs {
        var photo = JSONBytesWriterTests.fullPhoto
        var locale = "pt-PT"
        var template = TemplateIdentity(name: "photo-journal", variant: "photo-journal-b", version: "abc")
        var backends = [BackendIdentity(provider: "anthropic", model: "claude"), BackendIdentity(provider: "ollama", model: "llama3.2")]
        var parameters = ModelParameters(temperature: 0.7, maxTokens: 300, dryMultiplier: 0.8, seed: 7)
        var candidateCount = 6
        var round = 2
        var age: CacheKey.Age? = CacheKey.Age(isRecent: false, yearsAgo: 3)
        var lists = "1-abc"

        var key: CacheKey {
            CacheKey(
                photo: photo,
                locale: locale,
                template: template,
                backends: backends,
                parameters: parameters,
                candidateCount: candidateCount,
                lists: lists,
                round: round,
                age: age
            )
        }
    }

    /// One change per input, named by the property it changes.
    static let changes: [(property: String, change: @Sendable (inout Inputs) -> Void)] = [
        ("lists", { $0.lists = "2-abc" }),
        ("photo.takenAt", { $0.photo.takenAt = "2026-11-01T09:31:00+01:00" }),
        ("photo.location.name", { $0.photo.location?.name = "Praia do Vau" }),
        ("photo.location.locality", { $0.photo.location?.locality = "Lagos" }),
        ("photo.location.country", { $0.photo.location?.country = "ES" }),
        ("photo.location.latitude", { $0.photo.location?.latitude = 37.13 }),
        ("photo.location.longitude", { $0.photo.location?.longitude = -8.6 }),
        ("photo.labels", { $0.photo.labels?.append("dog") }),
        ("photo.peopleCount", { $0.photo.peopleCount = 4 }),
        ("photo.caption", { $0.photo.caption = "Another day" }),
        ("photo.source", { $0.photo.source = "camera" }),
        ("locale", { $0.locale = "pt-BR" }),
        ("template.name", { $0.template.name = "other" }),
        ("template.variant", { $0.template.variant = "photo-journal" }),
        ("template.version", { $0.template.version = "abd" }),
        ("backends: a model", { $0.backends[1].model = "llama3.1" }),
        ("backends: a provider", { $0.backends[0].provider = "openai" }),
        ("backends: the order", { $0.backends.reverse() }),
        ("backends: one more", { $0.backends.append(BackendIdentity(provider: "stub", model: "stub")) }),
        ("parameters.temperature", { $0.parameters.temperature = 0.8 }),
        ("parameters.temperature unset", { $0.parameters.temperature = nil }),
        ("parameters.maxTokens", { $0.parameters.maxTokens = 301 }),
        ("parameters.dryMultiplier", { $0.parameters.dryMultiplier = 0.9 }),
        ("parameters.seed", { $0.parameters.seed = 8 }),
        ("candidateCount", { $0.candidateCount = 7 }),
        ("round", { $0.round = 3 }),
        ("age.isRecent", { $0.age = CacheKey.Age(isRecent: true, yearsAgo: 3) }),
        ("age.yearsAgo", { $0.age = CacheKey.Age(isRecent: false, yearsAgo: 4) }),
        ("age unknown", { $0.age = nil }),
    ]

    @Test("Changing any one input gives a key of its own")
    func everyInputChangesTheKey() {
        let base = Inputs().key.hashed
        var seen = [base: "the unchanged inputs"]
        for (property, change) in Self.changes {
            var inputs = Inputs()
            change(&inputs)
            let key = inputs.key.hashed
            #expect(key != base, "changing \(property) left the key as it was")
            if let earlier = seen.updateValue(property, forKey: key) {
                Issue.record("changing \(property) gave the same key as \(earlier)")
            }
        }
    }

    @Test("On random photos, words and rounds, any one change of the table still gives a key of its own")
    func everyChangeOnRandomInputs() async {
        let text = Gen.letterOrNumber.string(of: 1...12)
        await propertyCheck(
            count: 200,
            input: text.array(of: 0...4),
            text,
            Gen.int(in: 0...4),
            Gen.int(in: 0..<Self.changes.count)
        ) { labels, caption, round, changeIndex in
            var inputs = Inputs()
            inputs.photo.labels = labels
            inputs.photo.caption = caption
            inputs.round = round
            let base = inputs.key.hashed
            let (property, change) = Self.changes[changeIndex]
            change(&inputs)
            // A change that sets what the random base already holds changes nothing: not a key of its own.
            if property == "round", round == 3 { return }
            #expect(inputs.key.hashed != base, "changing \(property) of \(labels) / \(caption) / round \(round) left the key")
        }
    }

    @Test("Every property of the key, the photo and its location is among the changes above")
    func everyPropertyIsVaried() throws {
        let varied = Set(Self.changes.map { $0.property.split(separator: " ")[0].split(separator: ":")[0] }.map(String.init))
        let location = try #require(Inputs().photo.location)
        let properties =
            Self.labels(of: Inputs().key).subtracting(["schema", "photo", "template", "parameters", "age"])
            .union(Self.labels(of: Inputs().photo).subtracting(["location"]).map { "photo.\($0)" })
            .union(Self.labels(of: location).map { "photo.location.\($0)" })
            .union(Self.labels(of: Inputs().template).map { "template.\($0)" })
            .union(Self.labels(of: Inputs().parameters).map { "parameters.\($0)" })
            .union(Self.labels(of: try #require(Inputs().age)).map { "age.\($0)" })
        #expect(properties.subtracting(varied).isEmpty, "not varied: \(properties.subtracting(varied).sorted())")
    }

    private static func labels(of value: Any) -> Set<String> {
        Set(Mirror(reflecting: value).children.compactMap(\.label))
    }
}
