// Written with `JSONBytesWriter` (why, and how `JSONBytesWriterTests` holds it to `JSONEncoder`, is there).

extension BackendIdentity {
    package func write(to json: inout JSONBytesWriter) {
        json.beginObject()
        json.field("model", model)
        json.field("provider", provider)
        json.endObject()
    }

    /// The `answeredBy` column's JSON.
    package var jsonColumn: String {
        JSONBytesWriter.text(reservingCapacity: 64, write(to:))
    }
}
