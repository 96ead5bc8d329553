import PromptDomain

/// The answer written by hand with ``JSONBytesWriter`` (why is there): its coding keys in sorted order, every one, `null`
/// for an absent value (the fixed shape the app reads). `JSONBytesWriterTests` decodes it back and checks every key.
extension PromptsResponse {
    /// The answer's bytes: sorted keys, no slash escaping, as `SnakeCaseJSON.encoder` writes every other answer.
    var jsonBytes: [UInt8] {
        JSONBytesWriter.bytes(reservingCapacity: 768) { json in
            json.beginObject()
            json.key("backend")
            if let backend { backend.write(to: &json) } else { json.null() }
            json.field("copy_locale", copyLocale)
            json.field("fallback_reason", fallbackReason?.rawValue)
            json.field("message", message)
            json.key("prompts")
            json.beginArray()
            for prompt in prompts { prompt.write(to: &json) }
            json.endArray()
            json.key("refreshes_remaining")
            json.int(refreshesRemaining)
            json.key("refreshes_used")
            json.int(refreshesUsed)
            json.field("session_id", sessionID)
            json.field("source", source.rawValue)
            json.key("template")
            template.write(to: &json)
            json.endObject()
        }
    }
}
