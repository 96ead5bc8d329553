import PromptDomain

// Written with `JSONBytesWriter` (why, and how `JSONBytesWriterTests` holds it to `JSONEncoder`, is there).

extension CacheKey {
    /// The key's canonical JSON: sorted keys, absent values left out.
    package var canonicalJSON: [UInt8] {
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
            json.field("lists", lists)
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
