/// Which of the shipped languages a user's locale reads: BCP 47 lookup (RFC 4647, section 3.4), after filling in
/// the script a Chinese tag leaves implicit: `ja-JP` → `ja`, `zh-TW` → `zh-Hant`, `zh-CN` and `zh` → `zh-Hans`. A
/// more specific file wins when an operator adds one (`pt-BR.json` before `pt.json`).
package enum CopyMatching {
    /// The tags to try for `tag`, most specific first; the caller uses the first it has copy for.
    package static func candidates(for tag: LanguageTag) -> [String] {
        guard !tag.language.isEmpty else { return [] }
        let script = tag.script ?? impliedScript(of: tag)
        let forms: [[String?]] = [[tag.language, script, tag.region], [tag.language, script], [tag.language, tag.region], [tag.language]]
        var chain: [String] = []
        for form in forms where form.allSatisfy({ $0 != nil }) {
            let candidate = form.compactMap { $0 }.joined(separator: "-")
            if !chain.contains(candidate) { chain.append(candidate) }
        }
        return chain
    }

    /// The language and the script it is written in, named or implied: `ja` for `ja-JP`, `zh-Hant` for `zh-TW`.
    package static func languageAndScript(of tag: LanguageTag) -> String {
        ([tag.language] + [tag.script ?? impliedScript(of: tag)].compactMap { $0 }).joined(separator: "-")
    }

    /// The script a tag implies without naming it, where that decides which copy a reader can read: Chinese is
    /// Traditional in Taiwan, Hong Kong and Macau, Simplified elsewhere (CLDR's likely subtags).
    package static func impliedScript(of tag: LanguageTag) -> String? {
        guard tag.language == "zh" || tag.language == "yue" else { return nil }
        if tag.language == "yue" { return tag.region == "CN" ? "Hans" : "Hant" }
        return ["TW", "HK", "MO"].contains(tag.region ?? "") ? "Hant" : "Hans"
    }
}
