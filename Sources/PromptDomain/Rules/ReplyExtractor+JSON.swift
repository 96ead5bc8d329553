import Foundation

extension ReplyExtractor {
    /// Every string a model listed in JSON in `text` (alone or amid prose, trailing commas and smart quotes too), or
    /// nil: an array of strings, an object holding one list under any key (`{"journal_prompts": […]}`), or an array
    /// of objects with one string field each (`[{"question": "…"}]`).
    package static func strings(in text: String) -> [String]? {
        guard let json = jsonValue(in: text) else { return nil }
        let strings = listedStrings(in: json, depth: 0)
        return strings.isEmpty ? nil : strings
    }

    /// The JSON from the first `[` or `{` to the last `]` or `}`, strict first, then repaired.
    private static func jsonValue(in text: String) -> Any? {
        guard let start = text.firstIndex(where: { $0 == "[" || $0 == "{" }),
            let end = text.lastIndex(where: { $0 == "]" || $0 == "}" }), start < end
        else { return nil }
        let candidate = String(text[start...end])
        if let value = try? JSONSerialization.jsonObject(with: Data(candidate.utf8)) { return value }
        return try? JSONSerialization.jsonObject(with: Data(repaired(candidate).utf8))
    }

    /// What models get wrong in JSON: smart quotes as string delimiters, and a comma before a closing bracket.
    package static func repaired(_ json: String) -> String {
        let straightened = json.replacingIfPresent("\u{201C}", with: "\"").replacingIfPresent("\u{201D}", with: "\"")
        return straightened.replacing(/,\s*([\]}])/) { match in String(match.output.1) }
    }

    /// The strings of the one list in `value`: an array's strings, or each object's one string field, or the list
    /// an object holds under whatever key.
    private static func listedStrings(in value: Any, depth: Int) -> [String] {
        guard depth < 4 else { return [] }
        if let strings = value as? [String] { return strings }
        if let array = value as? [Any] {
            return array.compactMap { element in
                if let string = element as? String { return string }
                guard let object = element as? [String: Any] else { return nil }
                return promptField(of: object)
            }
        }
        if let object = value as? [String: Any] {
            // The object's list, under whatever key the model chose; keys are tried in a stable order.
            for key in object.keys.sorted() {
                let inner = object[key] as Any
                if inner is [Any] || inner is [String: Any] {
                    let strings = listedStrings(in: inner, depth: depth + 1)
                    if !strings.isEmpty { return strings }
                }
            }
            return promptField(of: object).map { [$0] } ?? []
        }
        return []
    }

    /// The prompt an object holds: its only string field, or the one named like a prompt.
    private static func promptField(of object: [String: Any]) -> String? {
        let strings = object.compactMapValues { $0 as? String }
        if strings.count == 1 { return strings.values.first }
        for name in ["question", "prompt", "text", "content", "journal_prompt", "value"] {
            if let string = strings[name] { return string }
        }
        return nil
    }
}
