import Foundation

/// The message a provider put in an error answer, short and without secrets, for the log and `generate`: without it
/// a bad key, an unknown model and a refused parameter all read "HTTP 400". OpenAI and Anthropic send
/// `{"error": {"message": "…"}}`, Ollama `{"error": "…"}`, proxies plain text.
package enum ProviderErrorMessage {
    package static let maximumLength = 200

    /// The message in `body`, shortened, with anything that looks like a key masked; `nil` when there is none.
    package static func message(in body: [UInt8], redacting secrets: [String]) -> String? {
        var text: String?
        if let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] {
            let error = object["error"]
            text = (error as? [String: Any])?["message"] as? String ?? error as? String ?? object["message"] as? String
        } else if !body.isEmpty {
            text = String(decoding: body.prefix(1024), as: UTF8.self)
        }
        guard var message = text?.split(whereSeparator: \.isNewline).joined(separator: " "), !message.isEmpty else { return nil }
        for secret in secrets where secret.count >= 8 {
            message = message.replacing(secret, with: "[redacted]")
        }
        // Provider keys in the wild: sk-…, sk-ant-…, and Bearer tokens echoed back.
        message = message.replacing(/(sk-[A-Za-z0-9_\-]{4})[A-Za-z0-9_\-]{8,}/) { "\($0.output.1)…[redacted]" }
        message = message.replacing(/(?i)(bearer\s+)\S+/) { "\($0.output.1)[redacted]" }
        return message.count > maximumLength ? String(message.prefix(maximumLength)) + "…" : message
    }
}

extension JSONOverHTTP {
    /// "from URL: the provider's message", for a ``BackendError``'s detail.
    package func describe(_ response: HTTPTransportResponse, from url: String) -> String {
        guard let message = ProviderErrorMessage.message(in: response.body, redacting: secrets) else { return "from \(url)" }
        return "from \(url): \(message)"
    }
}
