// Written with `JSONBytesWriter` (why, and how `JSONBytesWriterTests` holds it to `JSONEncoder`, is there).

extension ValidPrompt {
    package func write(to json: inout JSONBytesWriter) {
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
    package static func jsonColumn(_ prompts: [ValidPrompt]) -> String {
        JSONBytesWriter.text(reservingCapacity: 96 * prompts.count + 2) { json in
            json.beginArray()
            for prompt in prompts { prompt.write(to: &json) }
            json.endArray()
        }
    }
}
