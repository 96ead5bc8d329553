/// The message that asks the model again, saying exactly which candidates were rejected and why.
enum ReaskFeedback {
    /// The follow-up user message after a reply whose candidates were judged as in `validation`.
    static func message(for validation: PromptValidation, needed: Int, checks: PromptChecks = PromptChecks()) -> String {
        var lines = [validation.kept.isEmpty ? "None of those questions could be used:" : "Some of those questions could not be used:"]
        for rejection in validation.rejected {
            lines.append("- \"\(PromptNormalizer.normalize(rejection.candidate))\": \(rejection.reason)")
        }
        var rules = ["8 to 15 words long", "on its own line"]
        if checks.mustEndWithQuestionMark { rules.append("ending with a question mark") }
        if checks.rejectsLinks { rules.append("without links or e-mail addresses") }
        rules.append("different from every question above")
        lines.append("Write \(needed) new questions. Each must be \(rules.dropLast().joined(separator: ", ")), and \(rules.last ?? "").")
        return lines.joined(separator: "\n")
    }
}
