// Written with `JSONBytesWriter` (why, and how `JSONBytesWriterTests` holds it to `JSONEncoder`, is there).

extension PhotoMetadata {
    package func write(to json: inout JSONBytesWriter) {
        json.beginObject()
        json.fieldIfPresent("caption", caption)
        if let labels {
            json.key("labels")
            json.beginArray()
            for label in labels { json.string(label) }
            json.endArray()
        }
        if let location {
            json.key("location")
            location.write(to: &json)
        }
        json.fieldIfPresent("people_count", peopleCount)
        json.fieldIfPresent("source", source)
        json.fieldIfPresent("taken_at", takenAt)
        json.endObject()
    }

    /// The photo column's JSON.
    package var jsonColumn: String {
        JSONBytesWriter.text(reservingCapacity: 256, write(to:))
    }
}

extension PhotoMetadata.Location {
    package func write(to json: inout JSONBytesWriter) {
        json.beginObject()
        json.fieldIfPresent("country", country)
        json.fieldIfPresent("latitude", latitude)
        json.fieldIfPresent("locality", locality)
        json.fieldIfPresent("longitude", longitude)
        json.fieldIfPresent("name", name)
        json.endObject()
    }
}
