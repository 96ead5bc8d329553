/// The JSON written on every request, by hand (see ``JSONBytesWriter``): the prompts answer, the cache key, and
/// the session's photo and surplus columns.
///
/// Each `write(to:)` lists its type's coding keys in sorted order and writes what the type's `Encodable`
/// conformance writes: the answer writes `null` for an absent value (its fixed shape), the others leave the key
/// out (synthesized conformances). A new property must be added here too; `HandWrittenJSONTests` compares every
/// type with `JSONEncoder` on fixtures that set every property, so a forgotten one fails there.
extension PromptsResponse {
    /// The answer's bytes, as `JSONResponse.encoder` would write them.
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

extension Prompt {
    func write(to json: inout JSONBytesWriter) {
        json.beginObject()
        json.field("id", id)
        json.field("source", source.rawValue)
        json.field("text", text)
        json.key("word_count")
        json.int(wordCount)
        json.endObject()
    }
}

extension TemplateIdentity {
    func write(to json: inout JSONBytesWriter) {
        json.beginObject()
        json.field("name", name)
        json.field("variant", variant)
        json.field("version", version)
        json.endObject()
    }
}

extension BackendIdentity {
    func write(to json: inout JSONBytesWriter) {
        json.beginObject()
        json.field("model", model)
        json.field("provider", provider)
        json.endObject()
    }

    /// The `answeredBy` column's JSON.
    var jsonColumn: String {
        JSONBytesWriter.text(reservingCapacity: 64, write(to:))
    }
}

extension CacheKey {
    /// The key's canonical JSON: sorted keys, absent values left out.
    var canonicalJSON: [UInt8] {
        JSONBytesWriter.bytes(reservingCapacity: 512) { json in
            json.beginObject()
            if let age {
                json.key("age")
                json.beginObject()
                json.key("isRecent")
                json.bool(age.isRecent)
                json.key("yearsAgo")
                json.int(age.yearsAgo)
                json.endObject()
            }
            json.key("backends")
            json.beginArray()
            for backend in backends { backend.write(to: &json) }
            json.endArray()
            json.key("candidateCount")
            json.int(candidateCount)
            json.field("locale", locale)
            json.key("parameters")
            parameters.write(to: &json)
            json.key("photo")
            photo.write(to: &json)
            json.key("round")
            json.int(round)
            json.key("schema")
            json.int(schema)
            json.key("template")
            template.write(to: &json)
            json.endObject()
        }
    }
}

extension ModelParameters {
    func write(to json: inout JSONBytesWriter) {
        json.beginObject()
        json.key("max_tokens")
        json.int(maxTokens)
        json.fieldIfPresent("temperature", temperature)
        json.endObject()
    }
}

extension PhotoMetadata {
    func write(to json: inout JSONBytesWriter) {
        json.beginObject()
        json.fieldIfPresent("caption", caption)
        if let labels {
            json.key("labels")
            json.beginArray()
            for label in labels { json.string(label) }
            json.endArray()
        }
        if let location {
            json.key("location")
            location.write(to: &json)
        }
        json.fieldIfPresent("people_count", peopleCount)
        json.fieldIfPresent("source", source)
        json.fieldIfPresent("taken_at", takenAt)
        json.endObject()
    }

    /// The photo column's JSON.
    var jsonColumn: String {
        JSONBytesWriter.text(reservingCapacity: 256, write(to:))
    }
}

extension PhotoMetadata.Location {
    func write(to json: inout JSONBytesWriter) {
        json.beginObject()
        json.fieldIfPresent("country", country)
        json.fieldIfPresent("latitude", latitude)
        json.fieldIfPresent("locality", locality)
        json.fieldIfPresent("longitude", longitude)
        json.fieldIfPresent("name", name)
        json.endObject()
    }
}

extension ValidPrompt {
    func write(to json: inout JSONBytesWriter) {
        json.beginObject()
        if let answeredBy {
            json.key("answeredBy")
            answeredBy.write(to: &json)
        }
        json.field("text", text)
        json.key("wordCount")
        json.int(wordCount)
        json.endObject()
    }

    /// A list of prompts as the surplus and cache columns hold it.
    static func jsonColumn(_ prompts: [ValidPrompt]) -> String {
        JSONBytesWriter.text(reservingCapacity: 96 * prompts.count + 2) { json in
            json.beginArray()
            for prompt in prompts { prompt.write(to: &json) }
            json.endArray()
        }
    }
}
