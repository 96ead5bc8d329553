/// A BCP 47 language tag (RFC 5646), checked for well-formedness and written in its canonical case.
///
/// The app sends `en_US` or `en-US`; both become `en-US`. Only the syntax is checked, not the IANA registry: a
/// well-formed tag with no copy (`tlh`) gets English. `LanguageTagTests` holds `openapi.yaml`'s `locale` pattern to it.
public struct LanguageTag: Sendable, Hashable, CustomStringConvertible {
    /// The tag in canonical case, subtags joined by `-`: `zh-Hant-TW`, `en-US`, `x-private`.
    public let description: String
    /// The primary language subtag in lower case (`ja`); empty for a private-use tag (`x-…`).
    public let language: String
    /// The script subtag in title case (`Hant`), if the tag has one.
    public let script: String?
    /// The region subtag in upper case (`TW`, `419`), if the tag has one.
    public let region: String?

    /// English, `en`: the source of the product's copy, and the language of a tag that names none.
    public static let english = LanguageTag(checked: "en", language: "en", script: nil, region: nil)

    private init(checked description: String, language: String, script: String?, region: String?) {
        self.description = description
        self.language = language
        self.script = script
        self.region = region
    }

    /// The language of a stored locale: English when it is not a tag (a session stored before tags were checked).
    public init(locale: String) {
        self = LanguageTag(locale) ?? .english
    }

    /// Parses `text`, which may separate subtags with `-` or `_`; `nil` when it is not a well-formed tag.
    public init?(_ text: String) {
        guard !text.isEmpty, text.utf8.count <= 35, text.unicodeScalars.allSatisfy({ $0.isASCII }) else { return nil }
        let subtags = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard subtags.allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy { $0.isLetter || $0.isNumber } }) else { return nil }
        guard let parsed = Self.parse(subtags) else { return nil }
        self = parsed
    }

    /// Walks RFC 5646's `langtag` or `privateuse` production, writing each subtag in its canonical case.
    private static func parse(_ subtags: [String]) -> LanguageTag? {
        var index = 0
        var parts: [String] = []
        var script: String?
        var region: String?
        func next(_ matches: (String) -> Bool) -> String? {
            guard index < subtags.count, matches(subtags[index]) else { return nil }
            defer { index += 1 }
            return subtags[index]
        }
        if isPrivateUseSingleton(subtags[0]) {
            return privateUse(subtags, from: 0).map { LanguageTag(checked: $0.joined(separator: "-"), language: "", script: nil, region: nil) }
        }
        guard let language = next({ $0.isAlphabetic && (2...8).contains($0.count) })?.lowercased() else { return nil }
        parts.append(language)
        if language.count <= 3 {
            // Up to three extended language subtags, as in zh-yue.
            for _ in 0..<3 {
                guard let extlang = next({ $0.isAlphabetic && $0.count == 3 }) else { break }
                parts.append(extlang.lowercased())
            }
        }
        if let subtag = next({ $0.isAlphabetic && $0.count == 4 }) {
            script = subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased()
            parts.append(script!)
        }
        if let subtag = next({ ($0.isAlphabetic && $0.count == 2) || ($0.isNumeric && $0.count == 3) }) {
            region = subtag.uppercased()
            parts.append(region!)
        }
        while let variant = next({ ($0.count >= 5) || ($0.count == 4 && $0.first!.isNumber) }) {
            parts.append(variant.lowercased())
        }
        // Extensions: a singleton other than x, then one or more subtags of 2 to 8 characters.
        while index < subtags.count, subtags[index].count == 1, !isPrivateUseSingleton(subtags[index]) {
            parts.append(subtags[index].lowercased())
            index += 1
            var count = 0
            while let subtag = next({ $0.count >= 2 }) {
                parts.append(subtag.lowercased())
                count += 1
            }
            guard count > 0 else { return nil }
        }
        if index < subtags.count {
            guard isPrivateUseSingleton(subtags[index]), let rest = privateUse(subtags, from: index) else { return nil }
            parts += rest
        }
        return LanguageTag(checked: parts.joined(separator: "-"), language: language, script: script, region: region)
    }

    private static func isPrivateUseSingleton(_ subtag: String) -> Bool {
        subtag == "x" || subtag == "X"
    }

    /// `x` and the one or more subtags after it, lower-cased; `nil` when none follows.
    private static func privateUse(_ subtags: [String], from start: Int) -> [String]? {
        subtags.count > start + 1 ? subtags[start...].map { $0.lowercased() } : nil
    }
}

extension String {
    fileprivate var isAlphabetic: Bool { allSatisfy(\.isLetter) }
    fileprivate var isNumeric: Bool { allSatisfy(\.isNumber) }
}
