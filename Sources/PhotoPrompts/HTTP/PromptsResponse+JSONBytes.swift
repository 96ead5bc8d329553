import PromptDomain

// Written with `JSONBytesWriter` (why, and how `JSONBytesWriterTests` holds it to `JSONEncoder`, is there).

/// The JSON written on every request, by hand (see ``JSONBytesWriter``): the prompts answer, the cache key, and
/// the session's photo and surplus columns.
///
/// Each `write(to:)` lists its type's coding keys in sorted order. The answer writes every key, `null` for an absent
/// value (the fixed shape the app reads), and is its only encoder: `JSONBytesWriterTests` decodes it back and checks
/// every coding key is there. The others write what their synthesized `Encodable` conformance writes, leaving absent
/// keys out, and are compared with `JSONEncoder` on fixtures that set every property, so a forgotten one fails there.
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
