import Foundation

/// The JSON envelope each model API wraps its reply text in.
enum ReplyShape: Sendable {
    /// `{"choices": [{"message": {"content": …}}]}`
    case openAI
    /// `{"content": [{"type": "text", "text": …}]}`
    case anthropic
    /// `{"message": {"role": "assistant", "content": …}, "done": true}`
    case ollama

    /// `content` wrapped in this API's response JSON.
    func reply(_ content: String) -> String {
        let object: [String: Any] =
            switch self {
            case .openAI:
                [
                    "id": "chatcmpl-stub", "object": "chat.completion", "model": "stub-llm",
                    "choices": [["index": 0, "message": ["role": "assistant", "content": content], "finish_reason": "stop"]],
                ]
            case .anthropic:
                [
                    "id": "msg_stub", "type": "message", "role": "assistant", "model": "stub-llm",
                    "content": [["type": "text", "text": content]], "stop_reason": "end_turn",
                ]
            case .ollama:
                ["model": "stub-llm", "message": ["role": "assistant", "content": content], "done": true]
            }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
