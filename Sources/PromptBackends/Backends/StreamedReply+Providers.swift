import Foundation

/// Each provider's stream, one line at a time. Lines that are not the provider's JSON say nothing.
extension StreamedReply {
    /// OpenAI's `stream: true`: `data: {"choices": [{"delta": {"content": "…"}, "finish_reason": …}], "usage": …}`
    /// Server-Sent Events, then `data: [DONE]`.
    @Sendable package static func openAI(_ line: Substring) -> [Event] {
        struct Chunk: Decodable {
            package struct Choice: Decodable {
                package struct Delta: Decodable { var content: String? }
                package var delta: Delta?
                package var finish_reason: String?
            }
            package struct Usage: Decodable {
                package var prompt_tokens: Int?
                package var completion_tokens: Int?
            }
            package var choices: [Choice]?
            package var usage: Usage?
        }
        guard let data = eventData(line), let chunk = try? decoder.decode(Chunk.self, from: data) else { return [] }
        var events: [Event] = []
        if let choice = chunk.choices?.first {
            if let content = choice.delta?.content, !content.isEmpty { events.append(.text(content)) }
            if let reason = choice.finish_reason { events.append(.finished(FinishReason(reason))) }
        }
        if let usage = chunk.usage { events.append(.usage(prompt: usage.prompt_tokens, completion: usage.completion_tokens)) }
        return events
    }

    /// Anthropic's `stream: true`: `message_start` (input tokens), `content_block_delta` with a `text_delta`, and
    /// `message_delta` (stop reason, output tokens), each as `data: {"type": …}`.
    @Sendable package static func anthropic(_ line: Substring) -> [Event] {
        struct Message: Decodable {
            package struct Usage: Decodable {
                package var input_tokens: Int?
                package var output_tokens: Int?
            }
            package struct Start: Decodable { var usage: Usage? }
            package struct Delta: Decodable {
                package var type: String?
                package var text: String?
                package var stop_reason: String?
            }
            package var type: String
            package var message: Start?
            package var delta: Delta?
            package var usage: Usage?
        }
        guard let data = eventData(line), let event = try? decoder.decode(Message.self, from: data) else { return [] }
        switch event.type {
        case "message_start":
            return [.usage(prompt: event.message?.usage?.input_tokens, completion: event.message?.usage?.output_tokens)]
        case "content_block_delta":
            guard event.delta?.type == "text_delta", let text = event.delta?.text, !text.isEmpty else { return [] }
            return [.text(text)]
        case "message_delta":
            var events: [Event] = []
            if let reason = event.delta?.stop_reason { events.append(.finished(FinishReason(reason))) }
            if let output = event.usage?.output_tokens { events.append(.usage(prompt: nil, completion: output)) }
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
            package var done_reason: String?
            package var prompt_eval_count: Int?
            package var eval_count: Int?
        }
        guard line.first == "{", let chunk = try? decoder.decode(Chunk.self, from: Data(line.utf8)) else { return [] }
        var events: [Event] = []
        if let content = chunk.message?.content, !content.isEmpty { events.append(.text(content)) }
        if chunk.done == true {
            if let reason = chunk.done_reason { events.append(.finished(FinishReason(reason))) }
            events.append(.usage(prompt: chunk.prompt_eval_count, completion: chunk.eval_count))
        }
        return events
    }
}
