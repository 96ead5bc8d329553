import Foundation
import PhotoPromptsTestSupport

/// `scripts/model/judge-cards.py`: a judge of shown cards that shares no code with the gate (CLD2's Python binding,
/// the `hunspell` command and plain shape rules), run in the virtual environment `make test` makes for it.
struct IndependentJudge {
    /// One card as the judge reads it.
    struct Card: Encodable {
        var text: String
        var language: String
        var photoWords: [String]

        enum CodingKeys: String, CodingKey {
            case text, language
            case photoWords = "photo_words"
        }
    }

    /// The judge's answer: the cards with faults, and the share of cards naming a detail of their photo.
    struct Verdict: Decodable {
        struct Failure: Decodable {
            var text: String
            var faults: [String]
        }
        var cards: Int
        var failed: [Failure]
        var namesDetailShare: Double?

        enum CodingKeys: String, CodingKey {
            case cards, failed
            case namesDetailShare = "names_detail_share"
        }
    }

    static let python = repositoryDirectory + "/.models/judge/bin/python"
    static let script = repositoryDirectory + "/scripts/model/judge-cards.py"

    /// Whether the judge's tools are installed (`make test` installs them: `make judge`).
    static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: python)
            && ["/usr/bin/hunspell", "/usr/local/bin/hunspell"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Judges `cards`.
    static func judge(_ cards: [Card]) async throws -> Verdict {
        let file = scratchPath("cards.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JSONEncoder().encode(["cards": cards]).write(to: file)
        let judge = try ChildProcess(URL(fileURLWithPath: python), arguments: [script, file.path])
        let (status, output) = try await judge.waitForExit(timeout: .seconds(60))
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("{") }) else {
            throw FixtureError("the judge printed no verdict (status \(status)): \(output)")
        }
        return try JSONDecoder().decode(Verdict.self, from: Data(line.utf8))
    }
}
