// Written by hand into bytes with `JSONBytesWriter`, as the same JSON `JSONEncoder` writes (sorted keys): the
// answer, the cache key and the session's JSON columns are written on every request, and this measured faster
// (docs/BENCHMARKS.md). `HandWrittenJSONTests` compares each writer with `JSONEncoder` on fixtures that set every
// property, so a property added to the type and forgotten here fails there.

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
