import Foundation

/// Splits a model's reply into candidate prompts.
///
/// Models answer in many shapes despite instructions: a JSON array, a JSON object holding one, a Markdown code
/// fence around either, or plain lines with numbering. Every shape becomes a flat list of raw candidates;
/// ``PromptValidator`` judges them afterwards.
public enum CandidateParser {
    /// The raw candidates in `reply`, in the order the model gave them.
    public static func candidates(in reply: String) -> [String] {
        let body = strippingCodeFence(reply.trimmingCharacters(in: .whitespacesAndNewlines))
        if let array = jsonStrings(in: body) {
            return array
        }
        return body.split(whereSeparator: \.isNewline)
            .map { String($0).trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !isHeading($0) }
    }

    /// A line such as "Here are six questions:" introduces a list; it is not a prompt.
    private static func isHeading(_ line: String) -> Bool {
        line.hasSuffix(":")
    }

    private static func strippingCodeFence(_ text: String) -> String {
        guard text.hasPrefix("```"), text.hasSuffix("```"), text.count > 6 else { return text }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        lines.removeFirst()  // "```" or "```json"
        lines.removeLast()
        return lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private struct PromptList: Decodable {
        var prompts: [String]?
        var questions: [String]?
    }

    private static func jsonStrings(in text: String) -> [String]? {
        guard let first = text.first, first == "[" || first == "{" else { return nil }
        let data = Data(text.utf8)
        if let array = try? JSONDecoder().decode([String].self, from: data) {
            return array
        }
        if let object = try? JSONDecoder().decode(PromptList.self, from: data) {
            return object.prompts ?? object.questions
        }
        return nil
    }
}
