// Written with `JSONBytesWriter` (why, and how `JSONBytesWriterTests` holds it to `JSONEncoder`, is there).

extension TemplateIdentity {
    package func write(to json: inout JSONBytesWriter) {
        json.beginObject()
        json.field("name", name)
        json.field("variant", variant)
        json.field("version", version)
        json.endObject()
    }
}
