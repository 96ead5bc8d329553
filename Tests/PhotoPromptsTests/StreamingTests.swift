import Foundation
import PhotoPromptsTestSupport
import PromptBackends
import PromptDomain
import PromptGeneration
import PromptTemplates
import Synchronization
import Testing

@testable import PhotoPrompts

/// Prompts found in a streamed reply while it is written, and the three providers' stream formats.
@Suite("Streamed replies: prompts found line by line agree with the whole reply", .dictionariesOpened)
struct StreamingTests {
    /// A reply fed to ``EarlyPrompts`` in small pieces, as a provider streams it.
    static func streamed(_ reply: String, pieceLength: Int = 7, validator: PromptValidator = PromptValidator()) -> [String] {
        let found = Mutex<[String]>([])
        let early = EarlyPrompts(validator: validator, seen: SeenPrompts(language: .english)) { prompt in found.withLock { $0.append(prompt.text) } }
        early.callStarted(by: BackendIdentity(provider: "stub", model: "stub"))
        var rest = Substring(reply)
        while !rest.isEmpty {
            early.received(String(rest.prefix(pieceLength)), logprobs: nil)
            rest = rest.dropFirst(pieceLength)
        }
        early.received("\n", logprobs: nil)
        return found.withLock { $0 }
    }

    @Test(
        "On every corpus reply, the prompts found line by line are the first three the whole reply keeps, near-duplicates aside, in order",
        arguments: replyCorpus
    )
    func agreesWithWholeReply(_ corpus: CorpusReply) {
        let kept = PromptValidator().validate(ReplyExtractor.candidates(in: corpus.reply)).kept
        let whole = SeenPrompts(language: .english).fresh(kept).map(\.text)
        #expect(Self.streamed(corpus.reply) == Array(whole.prefix(3)))
    }

    @Test("On every corpus reply, the candidates of each line-ending prefix begin the whole reply's candidates", arguments: replyCorpus)
    func everyPrefixAgrees(_ corpus: CorpusReply) {
        let whole = ReplyExtractor.candidates(in: corpus.reply).map(PromptNormalizer.normalize)
        let kept = Set(PromptValidator().validate(whole).kept.map(\.text))
        for end in corpus.reply.indices where corpus.reply[end].isNewline {
            let partial = ReplyExtractor.candidates(in: String(corpus.reply[..<end])).map(PromptNormalizer.normalize)
            // What a prefix yields and the validator keeps, the whole reply yields too, at the same place.
            let partialKept = partial.filter(kept.contains)
            #expect(
                Array(whole.filter(kept.contains).prefix(partialKept.count)) == partialKept,
                "prefix up to \(corpus.reply.distance(from: corpus.reply.startIndex, to: end))"
            )
        }
    }

    @Test("A prompt is handed on once its line is complete, not before")
    func waitsForTheLineEnd() {
        let found = Mutex<[String]>([])
        let early = EarlyPrompts(validator: PromptValidator(), seen: SeenPrompts(language: .english)) { prompt in
            found.withLock { $0.append(prompt.text) }
        }
        early.received(corpusQuestions[0], logprobs: nil)
        #expect(found.withLock { $0 }.isEmpty)
        early.received("\n" + corpusQuestions[1], logprobs: nil)
        #expect(found.withLock { $0 } == [corpusQuestions[0]])
    }

    @Test(
        "Prompts the session showed, and prompts handed on by an earlier call, are not handed on again; each is named with the backend that wrote it"
    )
    func avoidsWhatWasShown() {
        let found = Mutex<[ValidPrompt]>([])
        let shown = SeenPrompts(language: .english, shownTexts: [corpusQuestions[0]])
        let early = EarlyPrompts(validator: PromptValidator(), seen: shown) { prompt in found.withLock { $0.append(prompt) } }
        let primary = BackendIdentity(provider: "openai", model: "primary")
        let secondary = BackendIdentity(provider: "anthropic", model: "secondary")
        early.callStarted(by: primary)
        early.received(corpusQuestions[0...1].joined(separator: "\n") + "\n", logprobs: nil)
        early.callStarted(by: secondary)
        early.received(corpusQuestions[1...3].joined(separator: "\n") + "\n", logprobs: nil)
        #expect(found.withLock { $0.map(\.text) } == Array(corpusQuestions[1...3]))
        // A stream cut after them keeps these, so the answer names its backend from them.
        #expect(found.withLock { $0.map(\.answeredBy) } == [primary, secondary, secondary])
    }

    @Test("Prompts a backend streamed before it failed count towards the three: the next backend is not re-asked for them")
    func streamedPromptsCountAfterFailover() async throws {
        let primary = ScriptedBackend(name: "primary", streams: Array(corpusQuestions[0...1]), thenFails: true)
        let secondary = ScriptedBackend(name: "secondary", streams: [corpusQuestions[2], "Too short?"], thenFails: false)
        let generator = try PromptGenerator.testing([primary, secondary])
        let sent = Mutex<[String]>([])
        let input = PromptGenerator.Input(
            plan: try .testing(
                PromptTemplate(name: "t", systemText: "Write {{candidate_count}}.", userText: "{{photo.caption}}"),
                photo: PhotoMetadata(caption: "a dog on the beach"),
                language: LanguageTag(locale: "en-US")
            ),
            round: 0,
            alreadyShown: [],
            readsCache: false,
            stream: GenerationStream(modelAsked: {}, prompt: { prompt in sent.withLock { $0.append(prompt.text) } })
        )
        let generation = await generator.generate(input, logger: .init(label: "test"))
        #expect(sent.withLock { $0 } == Array(corpusQuestions[0...2]))
        #expect(generation.candidates.map(\.text) == Array(corpusQuestions[0...2]))
        #expect(!generation.reasked)
        #expect(secondary.calls == 1)
    }

    static let openAIStream = """
        data: {"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}

        data: {"choices":[{"index":0,"delta":{"content":"What sound"},"finish_reason":null}]}

        data: {"choices":[{"index":0,"delta":{"content":" stays?\\nWho"},"finish_reason":null}]}

        data: {"choices":[{"index":0,"delta":{},"finish_reason":"length"}]}

        data: {"choices":[],"usage":{"prompt_tokens":120,"completion_tokens":9,"total_tokens":129,"prompt_tokens_details":{"cached_tokens":103}}}

        data: [DONE]


        """

    /// llama.cpp's server (b579) asked for `logprobs`, as recorded on 2026-12-06 and cut short: each chunk carries its
    /// tokens, and "é" comes as two tokens of one byte each, neither a character on its own.
    static let llamaCppLogprobsStream = """
        data: {"choices":[{"finish_reason":null,"index":0,"delta":{"role":"assistant","content":null}}],"object":"chat.completion.chunk"}

        data: {"choices":[{"finish_reason":null,"index":0,"delta":{"content":"What"},"logprobs":{"content":[{"id":1780,"token":"What","bytes":[87,104,97,116],"logprob":-1.5438469648361206,"top_logprobs":[{"id":1780,"token":"What","bytes":[87,104,97,116],"logprob":-1.5438469648361206}]}]}}],"object":"chat.completion.chunk"}

        data: {"choices":[{"finish_reason":null,"index":0,"delta":{"content":" caf"},"logprobs":{"content":[{"id":2301,"token":" caf","bytes":[32,99,97,102],"logprob":-7.25,"top_logprobs":[]}]}}],"object":"chat.completion.chunk"}

        data: {"choices":[{"finish_reason":null,"index":0,"delta":{"content":"é?\\n"},"logprobs":{"content":[{"id":133,"token":"\\ufffd","bytes":[195],"logprob":-0.5,"top_logprobs":[]},{"id":104,"token":"\\ufffd","bytes":[169],"logprob":-0.01,"top_logprobs":[]},{"id":47,"token":"?\\n","bytes":[63,10],"logprob":-0.25,"top_logprobs":[]}]}}],"object":"chat.completion.chunk"}

        data: {"choices":[{"finish_reason":"stop","index":0,"delta":{}}],"object":"chat.completion.chunk"}

        data: [DONE]


        """

    @Test("llama.cpp's streamed log-probabilities reach the reply and the observer, one per byte of the text, however the bytes are cut")
    func streamedLogprobs() {
        for pieceLength in [1, 7, 4096] {
            let reply = StreamedReply(observer: nil, parse: StreamedReply.openAI)
            let bytes = Array(Self.llamaCppLogprobsStream.utf8)
            for start in stride(from: 0, to: bytes.count, by: pieceLength) {
                bytes[start..<min(start + pieceLength, bytes.count)].withUnsafeBytes { reply.receive($0) }
            }
            let finished = reply.finish()
            #expect(finished.text == "What café?\n")
            let logprobs = try? #require(finished.logprobs)
            #expect(logprobs?.byteCount == finished.text.utf8.count, "piece length \(pieceLength)")
            // " caf" starts at byte 4; the line after "What" holds it, and the tokens of "é" start at bytes 8 and 9.
            #expect(logprobs?.lowest(startingIn: 4..<12) == -7.25)
            #expect(logprobs?.lowest(startingIn: 8..<12) == -0.5)
            #expect(logprobs?.lowest(startingIn: 9..<12) == -0.25)
        }
    }

    static let anthropicStream = """
        event: message_start
        data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"usage":{"input_tokens":17,"cache_creation_input_tokens":0,"cache_read_input_tokens":103,"output_tokens":1}}}

        event: content_block_start
        data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

        event: ping
        data: {"type": "ping"}

        event: content_block_delta
        data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"What sound"}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" stays?\\nWho"}}

        event: content_block_stop
        data: {"type":"content_block_stop","index":0}

        event: message_delta
        data: {"type":"message_delta","delta":{"stop_reason":"max_tokens","stop_sequence":null},"usage":{"output_tokens":9}}

        event: message_stop
        data: {"type":"message_stop"}


        """

    static let ollamaStream = """
        {"model":"llama3.2","created_at":"2026-11-23T20:00:00Z","message":{"role":"assistant","content":"What sound"},"done":false}
        {"model":"llama3.2","created_at":"2026-11-23T20:00:00Z","message":{"role":"assistant","content":" stays?\\nWho"},"done":false}
        {"model":"llama3.2","created_at":"2026-11-23T20:00:01Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"length","prompt_eval_count":120,"eval_count":9}

        """

    @Test(
        "Each provider's stream gives its text in order, why it stopped and the tokens (those read from its prompt cache too), however the bytes are cut",
        arguments: [
            ("openai", openAIStream), ("anthropic", anthropicStream), ("ollama", ollamaStream),
        ]
    )
    func providerStreams(provider: String, stream: String) {
        let parse: @Sendable (Substring) -> [StreamedReply.Event] =
            switch provider {
            case "openai": StreamedReply.openAI
            case "anthropic": StreamedReply.anthropic
            default: StreamedReply.ollama
            }
        for pieceLength in [1, 3, 64, 4096] {
            let observer = RecordingObserver()
            let reply = StreamedReply(observer: observer, parse: parse)
            let bytes = Array(stream.utf8)
            for start in stride(from: 0, to: bytes.count, by: pieceLength) {
                bytes[start..<min(start + pieceLength, bytes.count)].withUnsafeBytes { reply.receive($0) }
            }
            let whole = reply.finish()
            #expect(whole.text == "What sound stays?\nWho", "pieces of \(pieceLength)")
            #expect(whole.finishReason == .length)
            // 103 of the 120 prompt tokens read from the cache, as llama.cpp's server and Anthropic report them; Ollama does not say.
            #expect(whole.usage == TokenUsage(prompt: 120, completion: 9, cached: provider == "ollama" ? 0 : 103))
            #expect(observer.texts == ["What sound", " stays?\nWho"])
        }
    }

    @Test("A character split between two chunks arrives whole")
    func splitCharacter() {
        let line = #"data: {"choices":[{"delta":{"content":"この写真？"}}]}"# + "\n"
        let reply = StreamedReply(observer: nil, parse: StreamedReply.openAI)
        let bytes = Array(line.utf8)
        for byte in bytes { [byte].withUnsafeBytes { reply.receive($0) } }
        #expect(reply.finish().text == "この写真？")
    }

    @Test("An error body, which is one JSON object, gives no text")
    func errorBody() {
        for parse in [StreamedReply.openAI, StreamedReply.anthropic, StreamedReply.ollama] {
            let reply = StreamedReply(observer: nil, parse: parse)
            Array(#"{"error":{"message":"rate limited","type":"rate_limit_error"}}"#.utf8).withUnsafeBytes { reply.receive($0) }
            #expect(reply.finish().text.isEmpty)
        }
    }
}

private final class RecordingObserver: ReplyObserver {
    private let received = Mutex<[String]>([])

    var texts: [String] { received.withLock { $0 } }
    func callStarted(by backend: BackendIdentity) {}
    func received(_ text: String, logprobs: TokenLogprobs?) { received.withLock { $0.append(text) } }
}
