import Testing

@testable import PhotoPrompts

/// A text field as the service keeps it: control characters become spaces, runs of whitespace one space, none at
/// either end. The table is written out by hand; its ASCII rows sit on each edge of the one-pass check that keeps
/// an already clean field as it is.
@Suite("A text field is kept with one space between words, no control character, nothing at either end")
struct FieldCleaningTests {
    static let table: [(sent: String, kept: String?)] = [
        ("dog", "dog"),
        ("beach towel", "beach towel"),
        ("~!@#$%^&*()_+{}|:<>?", "~!@#$%^&*()_+{}|:<>?"),
        (" dog", "dog"),
        ("dog ", "dog"),
        ("big  dog", "big dog"),
        ("big\tdog", "big dog"),
        ("big\ndog\r\n", "big dog"),
        ("bell\u{7}ring", "bell ring"),
        ("del\u{7F}ete", "del ete"),
        ("nul\u{0}", "nul"),
        ("", nil),
        (" ", nil),
        ("\u{1B}", nil),
        ("café  crème", "café crème"),
        ("海辺\u{3000}の犬", "海辺 の犬"),
        ("no\u{00A0}break", "no break"),
        ("next\u{85}line", "next line"),
    ]

    @Test("Each sent text is kept as the table says", arguments: table.indices)
    func cleaned(row: Int) throws {
        let (sent, kept) = Self.table[row]
        #expect(try PromptRequest.clean(sent, field: "photo.caption", maxLength: 100) == kept)
    }
}
