import Foundation

extension StringProtocol {
    /// The text without the spaces and tabs around it, as `trimmingCharacters(in: .whitespaces)` gives. Most lines of
    /// `prompts/` have none, and for them that call, which goes through NSString on Linux, was a tenth of loading the
    /// templates (and so of building every test app).
    var trimmingSpaces: String {
        guard first?.isWhitespace == true || last?.isWhitespace == true else { return String(self) }
        return trimmingCharacters(in: .whitespaces)
    }
}
