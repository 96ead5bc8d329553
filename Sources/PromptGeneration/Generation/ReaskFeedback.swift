import PromptDomain

/// The message that asks the model again, saying exactly which candidates were rejected and why.
package enum ReaskFeedback {
    package static func message(
        for validation: PromptValidation,
        needed: Int,
        rule: WordRule = .english,
        checks: PromptChecks = PromptChecks()
    ) -> String {
        var lines = [validation.kept.isEmpty ? "None of those questions could be used:" : "Some of those questions could not be used:"]
        for rejection in validation.rejected {
            lines.append("- \"\(PromptNormalizer.normalize(rejection.candidate))\": \(feedback(on: rejection.reason, rule: rule))")
        }
        var rules = ["\(rule.range.lowerBound) to \(rule.range.upperBound) words long", "on its own line"]
        if checks.mustEndWithQuestionMark { rules.append("ending with a question mark") }
        if checks.rejectsLinks { rules.append("without links or e-mail addresses") }
        rules.append("different from every question above")
        lines.append("Write \(needed) new questions. Each must be \(rules.dropLast().joined(separator: ", ")), and \(rules.last ?? "").")
        return lines.joined(separator: "\n")
    }

    /// The reason as the model is told it: a length names the range to write in, e.g. "too short at 4 words; write
    /// 11 to 21", since for a language like Japanese the range is not the 8 to 15 the model may assume.
    package static func feedback(on reason: PromptRejection.Reason, rule: WordRule) -> String {
        switch reason {
        case .tooShort, .tooLong: "\(reason); write \(rule.range.lowerBound) to \(rule.range.upperBound)"
        default: reason.description
        }
    }
}
