import Foundation

/// A deterministic stand-in for a language model that writes photo-aware journaling questions. It reads what a real
/// model would: the user message's `<photo>` block and the prompts already shown, which it never repeats. The same
/// messages always give the same answer, so cache and no-repeat behaviour is testable; for a locale in a language it
/// knows (``ReferenceQuestions``), it writes natural questions in that language (``PhotoQuestions``).
public enum StubPromptWriter {
    /// Up to `count` questions of 8–15 words (or their length in the requested language) for the photo in `user`.
    public static func questions(system: String, user: String, count: Int? = nil) -> [String] {
        let facts = PhotoFacts(user: user)
        let wanted = count ?? requestedCount(in: system) ?? 6
        let pool = pool(for: facts, in: PhotoQuestions.of(requestedLanguage(in: system)))
        // Like a model that follows its instructions, it writes neither what was shown nor the examples back, nor
        // another question of the same frame ("How did the dog make you feel…" after "…the beach…").
        let avoid = Set((facts.alreadyShown + examples(in: system)).map(repeatKey))
        let usedFrames = Set(pool.filter { avoid.contains(repeatKey($0.text)) }.map(\.frame))
        let fresh = pool.filter { !avoid.contains(repeatKey($0.text)) && !usedFrames.contains($0.frame) }
        // Rotated by a hash of the request, so photos and rounds start apart, and stepped by a stride that meets
        // every question: 7 unless the pool is a multiple of it (42 questions stepped by 7 met 6).
        guard !fresh.isEmpty else { return [] }
        let start = Int(stableHash(user) % UInt64(fresh.count))
        let stride = [7, 5, 3, 1].first { fresh.count % $0 != 0 || $0 == 1 } ?? 1
        var frames = Set<String>()
        var chosen: [String] = []
        for step in 0..<fresh.count where chosen.count < wanted {
            let entry = fresh[(start + step * stride) % fresh.count]
            if frames.insert(entry.frame).inserted { chosen.append(entry.text) }
        }
        return chosen
    }

    /// The example questions a system message shows: the lines after "For example:", up to a blank line or one that
    /// is not a question.
    static func examples(in system: String) -> [String] {
        let lines = system.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let start = lines.firstIndex(where: { $0.hasPrefix("For example") }) else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.isEmpty && ($0.hasSuffix("?") || $0.hasSuffix("？") || $0.hasSuffix("؟")) })
    }

    /// Questions about the photo's labels, place and people, then general ones, each with its frame: the pattern it
    /// fills in. With three labels, a place and people, 32 frames in English and 23 in the other languages, of every
    /// angle in the language's `prompts/angles/` file.
    private static func pool(for facts: PhotoFacts, in questions: PhotoQuestions) -> [(frame: String, text: String)] {
        var pool: [(frame: String, text: String)] = []
        for label in facts.labels.prefix(3) {
            pool += questions.label.map { ($0, $0.replacingOccurrences(of: "{}", with: label)) }
        }
        if let place = facts.place {
            pool += questions.place.map { ($0, $0.replacingOccurrences(of: "{}", with: place)) }
        }
        if facts.peopleCount > 0 {
            pool += questions.people.map { ($0, $0) }
        }
        return pool + questions.general.map { ($0, $0) }
    }

    /// The ``ReferenceQuestions/translations`` key for the locale after "locale " in `system` ("…the locale ja-JP.");
    /// `nil` for English, an unnamed locale, or a language the stub does not write.
    static func requestedLanguage(in system: String) -> String? {
        guard let range = system.range(of: "locale ") else { return nil }
        let tag = system[range.upperBound...].prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        let subtags = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.lowercased() }
        guard let language = subtags.first else { return nil }
        let key: String
        if language == "zh" {
            // Traditional in Taiwan, Hong Kong and Macau, or when the tag says so; Simplified otherwise.
            let traditional = subtags.contains("hant") || subtags.contains { ["tw", "hk", "mo"].contains($0) }
            key = traditional ? "zh-Hant" : "zh-Hans"
        } else {
            key = language
        }
        return ReferenceQuestions.translations[key] == nil ? nil : key
    }

    /// The first number after "Write " in the system message, e.g. 6 in "Write 6 different questions".
    static func requestedCount(in system: String) -> Int? {
        guard let range = system.range(of: "Write ") else { return nil }
        let digits = system[range.upperBound...].prefix(while: \.isNumber)
        return Int(digits)
    }

    /// Lower-cased letters and digits only, so "Why?" and "why" match.
    static func repeatKey(_ text: String) -> String {
        String(text.lowercased().filter { $0.isLetter || $0.isNumber })
    }

    /// FNV-1a: stable across processes, unlike `Hasher`.
    static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }
}
