// Written by hand into bytes with `JSONBytesWriter`, as the same JSON `JSONEncoder` writes (sorted keys): the
// answer, the cache key and the session's JSON columns are written on every request, and this measured faster
// (docs/BENCHMARKS.md). `HandWrittenJSONTests` compares each writer with `JSONEncoder` on fixtures that set every
// property, so a property added to the type and forgotten here fails there.

extension ModelParameters {
    func write(to json: inout JSONBytesWriter) {
        json.beginObject()
        json.key("max_tokens")
        json.int(maxTokens)
        json.fieldIfPresent("temperature", temperature)
        json.endObject()
    }
}
