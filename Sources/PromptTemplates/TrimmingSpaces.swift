import Foundation

extension StringProtocol {
    /// `trimmingCharacters(in: .whitespaces)`, skipped when there is nothing to trim, as for most lines of `prompts/`:
    /// that call goes through NSString on Linux and was a tenth of loading the templates (and so of every test app).
    var trimmingSpaces: String {
        guard first?.isWhitespace == true || last?.isWhitespace == true else { return String(self) }
        return trimmingCharacters(in: .whitespaces)
    }
}
