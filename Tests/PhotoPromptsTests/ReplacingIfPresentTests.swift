import Testing

@testable import PhotoPrompts

@Suite("replacingIfPresent: the standard library's answer, without its search when there is nothing to find")
struct ReplacingIfPresentTests {
    static let targets = ["**", "__", "\r\n", "\r", "\u{2019}", "\u{201C}"]
    static let texts = [
        "", "What made you smile?", "**What** made __you__ smile?", "a\r\nb\rc\n", "it’s the ‘light’", "“quoted”",
        "*single* _single_", "e\u{301}tait-ce ici ?", "日本語の**質問**", "\r", "**", "___",
    ]

    @Test("Every target in every text gives what replacing gives")
    func sameAsReplacing() {
        for text in Self.texts {
            for target in Self.targets {
                #expect(text.replacingIfPresent(target, with: "|") == text.replacing(target, with: "|"), "\(text) / \(target)")
            }
        }
    }
}
