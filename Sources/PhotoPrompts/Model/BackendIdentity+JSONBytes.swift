// Written by hand into bytes with `JSONBytesWriter`, as the same JSON `JSONEncoder` writes (sorted keys): the
// answer, the cache key and the session's JSON columns are written on every request, and this measured faster
// (docs/BENCHMARKS.md). `HandWrittenJSONTests` compares each writer with `JSONEncoder` on fixtures that set every
// property, so a property added to the type and forgotten here fails there.

extension BackendIdentity {
    func write(to json: inout JSONBytesWriter) {
        json.beginObject()
        json.field("model", model)
        json.field("provider", provider)
        json.endObject()
    }

    /// The `answeredBy` column's JSON.
    var jsonColumn: String {
        JSONBytesWriter.text(reservingCapacity: 64, write(to:))
    }
}
