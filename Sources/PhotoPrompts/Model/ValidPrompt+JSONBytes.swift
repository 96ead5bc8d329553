// Written by hand into bytes with `JSONBytesWriter`, as the same JSON `JSONEncoder` writes (sorted keys): the
// answer, the cache key and the session's JSON columns are written on every request, and this measured faster
// (docs/BENCHMARKS.md). `HandWrittenJSONTests` compares each writer with `JSONEncoder` on fixtures that set every
// property, so a property added to the type and forgotten here fails there.

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
