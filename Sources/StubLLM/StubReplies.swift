import Foundation
import StubModel

/// The reply text for each well-formed behaviour.
package enum StubReplies {
    package static func content(for behaviour: StubBehaviour, system: String, user: String) -> String {
        let good = StubPromptWriter.questions(system: system, user: user)
        switch behaviour {
        case .short:
            return shortQuestions.joined(separator: "\n")
        case .long:
            return longQuestions.joined(separator: "\n")
        case .mixed:
            return (Array(good.prefix(2)) + shortQuestions.prefix(2) + longQuestions.prefix(2)).joined(separator: "\n")
        case .numbered:
            return good.enumerated().map { "\($0.offset + 1). \($0.element)" }.joined(separator: "\n")
        case .bulleted:
            return good.enumerated().map { ($0.offset % 2 == 0 ? "- " : "• ") + $0.element }.joined(separator: "\n")
        case .jsonArray:
            let data = (try? JSONEncoder().encode(good)) ?? Data("[]".utf8)
            return String(decoding: data, as: UTF8.self)
        case .fencedWithPreamble:
            return "Here are six questions:\n\n```json\n" + prettyJSON(good) + "\n```"
        case .fencedWithSignOff:
            return "```json\n" + prettyJSON(good) + "\n```\n\nI hope these help!"
        case .boldNumbered:
            let items = good.enumerated().map { "\($0.offset + 1). **\($0.element)**" }
            return (["Sure! Here are some journaling prompts for your photo:", ""] + items + ["", "Enjoy your journaling!"]).joined(separator: "\n")
        case .italicLines:
            return good.map { "*\($0)*" }.joined(separator: "\n\n")
        case .jsonOtherKey:
            return json(["journal_prompts": good])
        case .jsonObjects:
            return json(good.map { ["question": $0] })
        case .duplicates:
            return good.prefix(2).flatMap { [$0, $0.uppercased(), $0.replacingOccurrences(of: "?", with: "?!")] }.joined(separator: "\n")
        case .echo:
            return user
        default:
            return good.joined(separator: "\n")
        }
    }

    /// JSON as a model prints it, one item per line with a trailing comma on each but the last.
    static func prettyJSON(_ strings: [String]) -> String {
        "[\n" + strings.map { "  \"\($0)\"" }.joined(separator: ",\n") + "\n]"
    }

    static func json(_ value: some Encodable) -> String {
        String(decoding: (try? JSONEncoder().encode(value)) ?? Data("null".utf8), as: UTF8.self)
    }

    static let shortQuestions = ["Why here?", "Who was there?", "What happened?", "How did it feel?", "What was best?", "Would you return?"]
    static let longQuestions = [
        "If you could step back into this exact moment and live it again with everything you know now, what would you change about it and why?",
        "Thinking about everyone and everything around you when this photo was taken, which small detail do you suspect you will forget first, and what does it mean?",
        "When you imagine showing this photo to someone you love many years from now, what story would you want to tell them about this day?",
    ]
}
