// Written with `JSONBytesWriter` (why, and how `JSONBytesWriterTests` holds it to `JSONEncoder`, is there).

extension ModelParameters {
    func write(to json: inout JSONBytesWriter) {
        json.beginObject()
        json.key("max_tokens")
        json.int(maxTokens)
        json.fieldIfPresent("temperature", temperature)
        json.endObject()
    }
}
