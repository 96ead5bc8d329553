// Written with `JSONBytesWriter` (why, and how `JSONBytesWriterTests` holds it to `JSONEncoder`, is there).

extension Prompt {
    package func write(to json: inout JSONBytesWriter) {
        json.beginObject()
        json.field("id", id)
        json.field("source", source.rawValue)
        json.field("text", text)
        json.key("word_count")
        json.int(wordCount)
        json.endObject()
    }
}
