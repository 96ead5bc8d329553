import Foundation
import Logging
import PhotoPromptsTestSupport
import PromptDomain
import PromptGeneration
import PromptStores
import PromptTemplates
import Synchronization
import Testing

@testable import PhotoPrompts

/// The gate on every path a prompt takes to the screen: a whole reply, a streamed one, surplus served on a refresh
/// and a cache entry written before the gate changed; and its reasons in the re-ask the model gets.
@Suite("The gate on every path to the screen")
struct GatePathTests {
    static let photo = GateTableTests.photo
    static let logger = Logger(label: "gate-path-test")

    /// Four good Spanish questions about the photo, the one naming its place first: the order the validator shows
    /// them in (``PhotoMentions``).
    static let spanish = [
        "¿Qué te hizo sonreír aquel día en Praia da Rocha?",
        "¿Qué recuerdas de aquella tarde en la playa con tu perro?",
        "¿Con quién compartiste este atardecer y por qué con esa persona?",
        "¿Qué sonido de esta playa te gustaría recordar dentro de muchos años?",
    ]
    static let english = "What does the sunset at the beach remind you of today?"
    static let placeholder = "¿Qué sentiste al llegar a [place_name] aquella tarde de verano?"

    /// The test's template, its lists judged by the gate of version `gate`.
    static func template(gate: Int = PromptGate.version) throws -> PromptTemplate {
        var template = try PromptTemplate(name: "t", systemText: "Write {{candidate_count}} in {{language}}.", userText: "{{photo.place}}")
        template.useLists(chatter: GateTableTests.chatter, dictionaries: testDictionaries, gate: gate)
        return template
    }

    static func input(readsCache: Bool = false, stream: GenerationStream? = nil, gate: Int = PromptGate.version) throws -> PromptGenerator.Input {
        PromptGenerator.Input(
            plan: try .testing(template(gate: gate), photo: photo, language: LanguageTag(locale: "es-ES")),
            round: 0,
            alreadyShown: [],
            readsCache: readsCache,
            stream: stream
        )
    }

    @Test("A whole reply: only clean Spanish is kept, and the re-ask tells the model each reason")
    func wholeReply() async throws {
        let backend = ScriptedBackend(
            name: "m",
            replies: [[Self.english, Self.spanish[0], Self.placeholder, Self.spanish[1]], Array(Self.spanish[2...3])]
        )
        let generation = try await PromptGenerator.testing([backend]).generate(try Self.input(), logger: Self.logger)
        #expect(generation.candidates.map(\.text) == Self.spanish)
        #expect(generation.rejected.map(\.reason) == [.wrongLanguage("en"), .placeholder])
        #expect(backend.calls == 2)
        let reask = try #require(backend.received.last?.messages.last?.content)
        #expect(reask.contains("\"\(Self.english)\": written in en, not in the user's language"))
        #expect(reask.contains("\"\(Self.placeholder)\": has a placeholder in brackets or braces"))
    }

    @Test("A reply that failed only on what telling cannot fix (another language) is not re-asked: fallbacks at once")
    func noReaskThatCannotHelp() async throws {
        let english = ["What does the sunset at the beach remind you of today?", "Who walked with you and the dog along the shore that day?"]
        let backend = ScriptedBackend(name: "m", replies: [english])
        let generation = try await PromptGenerator.testing([backend]).generate(try Self.input(), logger: Self.logger)
        #expect(backend.calls == 1)
        #expect(generation.source == .fallback)
        #expect(generation.fallbackReason == .invalidOutput)
        #expect(generation.rejected.map(\.reason) == [.wrongLanguage("en"), .wrongLanguage("en")])
        // Too short is fixed by telling: that reply is re-asked.
        let short = ScriptedBackend(name: "m", replies: [["¿Qué recuerdas?"], Self.spanish])
        let reasked = try await PromptGenerator.testing([short]).generate(try Self.input(), logger: Self.logger)
        #expect(short.calls == 2)
        #expect(reasked.candidates.map(\.text) == Self.spanish)
    }

    @Test("A streamed reply: each prompt is judged as it arrives, and only clean ones are sent")
    func streamedReply() async throws {
        let backend = ScriptedBackend(name: "m", replies: [[Self.english, Self.spanish[0], Self.placeholder, Self.spanish[1], Self.spanish[2]]])
        let sent = Mutex<[String]>([])
        let stream = GenerationStream(modelAsked: {}, prompt: { prompt in sent.withLock { $0.append(prompt.text) } })
        let generation = try await PromptGenerator.testing([backend])
            .generate(try Self.input(stream: stream), logger: Self.logger)
        #expect(sent.withLock { $0 } == Array(Self.spanish[0...2]))
        #expect(generation.candidates.map(\.text) == Array(Self.spanish[0...2]))
    }

    @Test("A cache entry written before the gate changed is not served; one written under this gate is")
    func cacheBeforeGateChange() async throws {
        let store = try InMemoryDatabase().open()
        let backend = ScriptedBackend(name: "m", replies: [Self.spanish])
        let generator = try PromptGenerator.testing([backend], cache: store)
        let input = try Self.input(readsCache: true)
        let stale = [Self.english, "What do you hear when you look at this beach photo?", "Who walked with you and the dog along the shore?"]
            .map { ValidPrompt(text: $0, wordCount: WordCounter.count($0)) }
        // Written by the same template and lists under the gate before this one.
        let oldKey = generator.cacheKey(for: try Self.input(readsCache: true, gate: PromptGate.version - 1)).hashed
        try await store.cache(CacheEntry(key: oldKey, prompts: stale, expiresAt: Date().addingTimeInterval(3600)), at: Date())

        let missed = await generator.generate(input, logger: Self.logger)
        #expect(missed.source == .model)
        #expect(missed.candidates.map(\.text) == Self.spanish)

        // The same entry under this gate's key is a hit: the key, not the entry, is what changed.
        let current = generator.cacheKey(for: input).hashed
        try await store.cache(CacheEntry(key: current, prompts: stale, expiresAt: Date().addingTimeInterval(3600)), at: Date())
        let hit = await generator.generate(input, logger: Self.logger)
        #expect(hit.source == .cache)
        #expect(backend.calls == 1)
    }

    @Test(
        "Surplus kept by an older gate is judged again on refresh: English surplus for a Spanish user is not served",
        arguments: [true, false]
    )
    func surplusOnRefresh(surplusIsEnglish: Bool) async throws {
        let store = try InMemoryDatabase().open()
        let backend = ScriptedBackend(name: "m", replies: [Self.spanish])
        let clock = SystemWallClock()
        let templates = try TemplateLibrary(
            name: "photo-journal",
            directory: repositoryPromptsDirectory,
            dictionaries: testDictionaries,
            clock: clock,
            logger: Self.logger
        )
        let refreshes = SessionService(
            generator: try PromptGenerator.testing([backend], cache: store),
            store: store,
            templates: templates,
            stats: StatsRecorder(store: store, clock: clock),
            sessionTTL: 3600,
            refreshLimit: 5
        )
        let surplus =
            surplusIsEnglish
            ? [Self.english, "What do you hear when you look at this beach photo?", "Who walked with you and the dog along the shore?"]
            : [
                "¿Qué olor de aquella playa te gustaría volver a sentir hoy?", "¿Qué pensabas justo antes de hacer esta foto en la playa?",
                "¿Qué detalle de este atardecer quieres recordar dentro de años?",
            ]
        let shown = [
            "¿Qué pasó en este momento tan especial para ti?", "¿Cómo te hizo sentir este día en la playa?",
            "¿Qué quieres recordar de hoy y de este lugar?",
        ]
        let now = Date()
        let firstRound = SessionRound(
            source: .model,
            prompts: shown.enumerated().map { Prompt(id: "p_\($0.offset)", text: $0.element, wordCount: 9, source: .model) },
            surplus: surplus.map { ValidPrompt(text: $0, wordCount: WordCounter.count($0)) },
            createdAt: now
        )
        try await store.createSession(
            SessionSnapshot(
                id: "s_surplus",
                owner: Caller.openClient,
                locale: LanguageTag(locale: "es-ES"),
                photo: Self.photo,
                template: TemplateIdentity(name: "photo-journal", version: "older"),
                refreshesUsed: 0,
                createdAt: now,
                expiresAt: now.addingTimeInterval(3600),
                surplus: firstRound.surplus,
                rounds: [firstRound]
            )
        )
        let answer = try await refreshes.refresh(
            sessionID: "s_surplus",
            caller: Caller(client: Caller.openClient, userID: nil),
            readsCache: false,
            deadline: .now + .seconds(10),
            logger: Self.logger
        )
        let texts = answer.round.prompts.map(\.text)
        if surplusIsEnglish {
            #expect(backend.calls == 1, "the English surplus fails the gate, so the model is asked")
            #expect(Set(texts) == Set(Self.spanish[0...2]))
        } else {
            #expect(backend.calls == 0, "Spanish surplus passes and is served without a model call")
            #expect(texts == surplus)
        }
    }
}
