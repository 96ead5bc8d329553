import Foundation

/// The JSON envelope each model API wraps its reply text in.
enum ReplyShape: Sendable {
    /// `{"choices": [{"message": {"content": …}}]}`
    case openAI
    /// `{"content": [{"type": "text", "text": …}]}`
    case anthropic
    /// `{"message": {"role": "assistant", "content": …}, "done": true}`
    case ollama

    func error(_ message: String, type: String) -> String {
        let object: [String: Any] =
            switch self {
            case .openAI: ["error": ["message": message, "type": type, "param": NSNull(), "code": type]]
            case .anthropic: ["type": "error", "error": ["type": type, "message": message]]
            case .ollama: ["error": message]
            }
        return Self.json(object)
    }

    /// `content` in this API's response JSON, with why the model stopped (`cutOff`: at its token limit) and a token
    /// count (four characters a token, as for English); nil content is what a reasoning model out of budget sends.
    func reply(_ content: String?, cutOff: Bool = false, promptCharacters: Int = 0) -> String {
        let usage = (prompt: max(1, promptCharacters / 4), completion: (content?.count ?? 0) / 4 + (content == nil ? 512 : 1))
        let object: [String: Any] =
            switch self {
            case .openAI:
                [
                    "id": "chatcmpl-stub", "object": "chat.completion", "model": "stub-llm",
                    "choices": [
                        [
                            "index": 0, "message": ["role": "assistant", "content": content.map { $0 as Any } ?? NSNull()],
                            "finish_reason": cutOff ? "length" : "stop",
                        ]
                    ],
                    "usage": ["prompt_tokens": usage.prompt, "completion_tokens": usage.completion, "total_tokens": usage.prompt + usage.completion],
                ]
            case .anthropic:
                [
                    "id": "msg_stub", "type": "message", "role": "assistant", "model": "stub-llm",
                    "content": content.map { [["type": "text", "text": $0]] } ?? [], "stop_reason": cutOff ? "max_tokens" : "end_turn",
                    "usage": ["input_tokens": usage.prompt, "output_tokens": usage.completion],
                ]
            case .ollama:
                [
                    "model": "stub-llm", "message": ["role": "assistant", "content": content ?? ""], "done": true,
                    "done_reason": cutOff ? "length" : "stop", "prompt_eval_count": usage.prompt, "eval_count": usage.completion,
                ]
            }
        return Self.json(object)
    }

    static func json(_ object: [String: Any]) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data(), as: UTF8.self)
    }
}
