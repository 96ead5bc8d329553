import Foundation

/// The facts a model can read from the user message that PhotoPrompts' templates render.
struct PhotoFacts {
    var labels: [String] = []
    var place: String?
    var peopleCount = 0
    var alreadyShown: [String] = []

    /// Reads `key: value` lines inside `<photo>…</photo>`, or the one sentence `<photo>Photo taken at …, showing …,
    /// 2 people, …</photo>`, and `- ` lines after a line mentioning "already".
    init(user: String) {
        if let sentence = Self.sentence(in: user) { read(sentence) }
        var insidePhoto = false
        var insideAvoid = false
        for rawLine in user.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("<photo>"), line.count > "<photo>".count { continue }
            if line == "<photo>" {
                insidePhoto = true
                insideAvoid = false
                continue
            }
            if line == "</photo>" {
                insidePhoto = false
                continue
            }
            if line.lowercased().contains("already") {
                insideAvoid = true
                continue
            }
            if insideAvoid, line.hasPrefix("- ") {
                alreadyShown.append(String(line.dropFirst(2)))
                continue
            }
            guard insidePhoto, let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch key {
            case "labels": labels = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            case "place": place = value.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) }
            case "people_count": peopleCount = Int(value) ?? 0
            default: break
            }
        }
    }

    /// The photo as one sentence, when the template writes it so: the text between `<photo>Photo` and `</photo>`.
    private static func sentence(in user: String) -> Substring? {
        guard let open = user.range(of: "<photo>Photo"), let close = user.range(of: "</photo>", range: open.upperBound..<user.endIndex) else {
            return nil
        }
        return user[open.upperBound..<close.lowerBound]
    }

    /// "taken at Praia da Rocha, Portimão, Portugal, showing beach, sunset, dog, 2 people, in the evening."
    private mutating func read(_ sentence: Substring) {
        // The sentence's full stop ends its last part, a label or "5 people".
        let parts = sentence.components(separatedBy: ", ").map { $0.trimmingCharacters(in: .whitespaces.union(["."])) }
        var showing = false
        for part in parts {
            if part.hasPrefix("taken at ") {
                place = String(part.dropFirst("taken at ".count))
            } else if part.hasPrefix("showing ") {
                showing = true
                labels.append(String(part.dropFirst("showing ".count)))
            } else if part.hasSuffix(" people"), let count = Int(part.dropLast(" people".count)) {
                peopleCount = count
                showing = false
            } else if part.hasPrefix("in the ") || part.contains(" ago") || part.hasPrefix("this ") {
                showing = false
            } else if showing {
                labels.append(part)
            }
        }
    }
}
