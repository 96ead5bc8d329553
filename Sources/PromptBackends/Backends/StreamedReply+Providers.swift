import Foundation
import PromptDomain

/// Each provider's stream, one line at a time. Lines that are not the provider's JSON say nothing.
extension StreamedReply {
    /// OpenAI's `stream: true`: `data: {"choices": [{"delta": {"content": "…"}, "finish_reason": …}], "usage": …}`
    /// Server-Sent Events, then `data: [DONE]`.
    @Sendable package static func openAI(_ line: Substring) -> [Event] {
        struct Chunk: Decodable {
            package struct Choice: Decodable {
                package struct Delta: Decodable { var content: String? }
                package var delta: Delta?
                package var finishReason: String?
                package var logprobs: ChoiceLogprobs?
            }
            package struct Usage: Decodable {
                package var promptTokens: Int?
                package var completionTokens: Int?
                package var promptTokensDetails: CachedTokens?
            }
            package var choices: [Choice]?
            package var usage: Usage?
        }
        guard let data = eventData(line), let chunk = try? SnakeCaseJSON.decoder.decode(Chunk.self, from: data) else { return [] }
        var events: [Event] = []
        if let choice = chunk.choices?.first {
            if let content = choice.delta?.content, !content.isEmpty { events.append(.text(content, choice.logprobs?.scored)) }
            if let reason = choice.finishReason { events.append(.finished(FinishReason(reason))) }
        }
        if let usage = chunk.usage {
            events.append(.usage(prompt: usage.promptTokens, completion: usage.completionTokens, cached: usage.promptTokensDetails?.cachedTokens))
        }
        return events
    }

    /// Anthropic's `stream: true`: `message_start` (input tokens), `content_block_delta` with a `text_delta`, and
    /// `message_delta` (stop reason, output tokens), each as `data: {"type": …}`.
    @Sendable package static func anthropic(_ line: Substring) -> [Event] {
        struct Message: Decodable {
            package struct Usage: Decodable {
                package var inputTokens: Int?
                package var outputTokens: Int?
                package var cacheReadInputTokens: Int?
                package var cacheCreationInputTokens: Int?
            }
            package struct Start: Decodable { var usage: Usage? }
            package struct Delta: Decodable {
                package var type: String?
                package var text: String?
                package var stopReason: String?
            }
            package var type: String
            package var message: Start?
            package var delta: Delta?
            package var usage: Usage?
        }
        guard let data = eventData(line), let event = try? SnakeCaseJSON.decoder.decode(Message.self, from: data) else { return [] }
        switch event.type {
        case "message_start":
            let usage = event.message?.usage
            let read = usage?.cacheReadInputTokens ?? 0
            let prompt = usage?.inputTokens.map { $0 + read + (usage?.cacheCreationInputTokens ?? 0) }
            return [.usage(prompt: prompt, completion: usage?.outputTokens, cached: read)]
        case "content_block_delta":
            guard event.delta?.type == "text_delta", let text = event.delta?.text, !text.isEmpty else { return [] }
            return [.text(text)]
        case "message_delta":
            var events: [Event] = []
            if let reason = event.delta?.stopReason { events.append(.finished(FinishReason(reason))) }
            if let output = event.usage?.outputTokens { events.append(.usage(prompt: nil, completion: output)) }
            return events
        default:
            return []
        }
    }

    /// Ollama's `stream: true`: one JSON object per line, `{"message": {"content": "…"}, "done": false}`, the last
    /// with `done_reason` and the token counts.
    @Sendable package static func ollama(_ line: Substring) -> [Event] {
        struct Chunk: Decodable {
            package struct Message: Decodable { var content: String? }
            package var message: Message?
            package var done: Bool?
            package var doneReason: String?
            package var promptEvalCount: Int?
            package var evalCount: Int?
        }
        guard line.first == "{", let chunk = try? SnakeCaseJSON.decoder.decode(Chunk.self, from: Data(line.utf8)) else { return [] }
        var events: [Event] = []
        if let content = chunk.message?.content, !content.isEmpty { events.append(.text(content)) }
        if chunk.done == true {
            if let reason = chunk.doneReason { events.append(.finished(FinishReason(reason))) }
            events.append(.usage(prompt: chunk.promptEvalCount, completion: chunk.evalCount))
        }
        return events
    }
}
