import Foundation

/// How each API streams a reply: OpenAI's and Anthropic's Server-Sent Events, Ollama's JSON lines.
extension ReplyShape {
    func streamOpening() -> [String] {
        switch self {
        case .openAI, .ollama:
            []
        case .anthropic:
            [
                Self.event(
                    "message_start",
                    ["type": "message_start", "message": ["id": "msg_stub", "usage": ["input_tokens": 1, "output_tokens": 1]]]
                ),
                Self.event("content_block_start", ["type": "content_block_start", "index": 0, "content_block": ["type": "text", "text": ""]]),
            ]
        }
    }

    func streamToken(_ token: String) -> String {
        switch self {
        case .openAI:
            Self.data([
                "id": "chatcmpl-stub", "object": "chat.completion.chunk",
                "choices": [["index": 0, "delta": ["content": token], "finish_reason": NSNull()]],
            ])
        case .anthropic:
            Self.event("content_block_delta", ["type": "content_block_delta", "index": 0, "delta": ["type": "text_delta", "text": token]])
        case .ollama:
            Self.line(["model": "stub-llm", "message": ["role": "assistant", "content": token], "done": false])
        }
    }

    /// What comes after the last token: why it stopped and the tokens it cost (about four characters a token).
    func streamClosing(promptCharacters: Int, completionTokens: Int) -> [String] {
        let prompt = max(1, promptCharacters / 4)
        switch self {
        case .openAI:
            return [
                Self.data([
                    "id": "chatcmpl-stub", "object": "chat.completion.chunk", "choices": [["index": 0, "delta": [:], "finish_reason": "stop"]],
                ]),
                Self.data([
                    "id": "chatcmpl-stub", "object": "chat.completion.chunk", "choices": [],
                    "usage": ["prompt_tokens": prompt, "completion_tokens": completionTokens],
                ]),
                "data: [DONE]\n\n",
            ]
        case .anthropic:
            return [
                Self.event("content_block_stop", ["type": "content_block_stop", "index": 0]),
                Self.event(
                    "message_delta",
                    ["type": "message_delta", "delta": ["stop_reason": "end_turn"], "usage": ["output_tokens": completionTokens]]
                ),
                Self.event("message_stop", ["type": "message_stop"]),
            ]
        case .ollama:
            return [
                Self.line([
                    "model": "stub-llm", "message": ["role": "assistant", "content": ""], "done": true, "done_reason": "stop",
                    "prompt_eval_count": prompt, "eval_count": completionTokens,
                ])
            ]
        }
    }

    private static func data(_ object: [String: Any]) -> String { "data: \(json(object))\n\n" }

    private static func event(_ name: String, _ object: [String: Any]) -> String { "event: \(name)\ndata: \(json(object))\n\n" }

    private static func line(_ object: [String: Any]) -> String { json(object) + "\n" }
}
