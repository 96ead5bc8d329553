/// Template slots a model left unfilled: `[image_source]`, `{{place}}`, `{place}`, `<name>`.
///
/// A question to a user never holds brackets or braces, so any of them is a slot; `<` counts only when a tag's
/// letters follow it, so "<3" is left to the other checks.
package enum Placeholders {
    /// Whether `text` holds a placeholder.
    package static func contains(_ text: some StringProtocol) -> Bool {
        var afterAngle = false
        for character in text {
            if "[]{}".contains(character) { return true }
            if afterAngle, character == ">" || character == "›" { return true }
            if character == "<" || character == "‹" {
                afterAngle = true
            } else if afterAngle, !(character.isLetter || character == "_" || character == "/" || character == "-") {
                afterAngle = false
            }
        }
        return false
    }
}
