import Foundation

/// The facts a model can read from the user message that PhotoPrompts' templates render.
struct PhotoFacts {
    var labels: [String] = []
    var place: String?
    var peopleCount = 0
    var alreadyShown: [String] = []

    /// Reads `key: value` lines inside `<photo>…</photo>` and `- ` lines after a line mentioning "already".
    init(user: String) {
        var insidePhoto = false
        var insideAvoid = false
        for rawLine in user.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
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
}
