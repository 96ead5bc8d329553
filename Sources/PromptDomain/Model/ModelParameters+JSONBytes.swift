// Written with `JSONBytesWriter` (why, and how `JSONBytesWriterTests` holds it to `JSONEncoder`, is there).

extension ModelParameters {
    package func write(to json: inout JSONBytesWriter) {
        json.beginObject()
        json.fieldIfPresent("dry_multiplier", dryMultiplier)
        json.fieldIfPresent("max_tokens", maxTokens)
        json.fieldIfPresent("seed", seed)
        json.fieldIfPresent("temperature", temperature)
        json.endObject()
    }
}
