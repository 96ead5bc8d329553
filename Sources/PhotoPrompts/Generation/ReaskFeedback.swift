/// The message that asks the model again, saying exactly which candidates were rejected and why.
enum ReaskFeedback {
    /// The follow-up user message after a reply whose candidates were judged as in `validation`.
    static func message(for validation: PromptValidation, needed: Int) -> String {
        var lines = ["Some of those questions could not be used:"]
        for rejection in validation.rejected {
            lines.append("- \"\(PromptNormalizer.normalize(rejection.candidate))\": \(rejection.reason)")
        }
        lines.append(
            "Write \(needed) new questions. Each must be 8 to 15 words long, on its own line, and different from every question above."
        )
        return lines.joined(separator: "\n")
    }
}
