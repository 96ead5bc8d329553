import Foundation
import PromptDomain

/// A session as the values of its `session` row: how both databases write a new session and read one back, the one
/// mapping between ``SessionSnapshot`` and the table. The photo and the surplus are JSON text in both.
package struct SessionColumns {
    /// The columns every read selects, in the order of ``Values``.
    package static let names = """
        id, ownerKey, userID, locale, photo, templateName, templateVariant, templateVersion, refreshesUsed, createdAt, \
        expiresAt, surplus
        """
    typealias Values = (String, String, String?, String, String, String, String?, String, Int, Double, Double, String)

    var id: String
    /// The client key's name that created it.
    var ownerKey: String
    var userID: String?
    var locale: String
    var photo: String
    var templateName: String
    var templateVariant: String?
    var templateVersion: String
    var refreshesUsed: Int
    var createdAt: Double
    var expiresAt: Double
    var surplus: String

    /// A new session's row. Its JSON is encoded here, on the request's own task, before the write.
    init(_ session: SessionSnapshot) {
        self.init(
            (
                session.id, session.owner, session.userID, session.locale.description, session.photo.jsonColumn, session.template.name,
                session.template.variant, session.template.version, session.refreshesUsed, session.createdAt.timeIntervalSince1970,
                session.expiresAt.timeIntervalSince1970, ValidPrompt.jsonColumn(session.surplus)
            )
        )
    }

    /// A row read back, its columns in the order of ``names``.
    init(_ values: Values) {
        (id, ownerKey, userID, locale, photo) = (values.0, values.1, values.2, values.3, values.4)
        (templateName, templateVariant, templateVersion) = (values.5, values.6, values.7)
        (refreshesUsed, createdAt, expiresAt, surplus) = (values.8, values.9, values.10, values.11)
    }

    var template: TemplateIdentity { TemplateIdentity(name: templateName, variant: templateVariant, version: templateVersion) }

    /// The `sessionRound` columns every read selects, in the order of ``RoundValues``.
    static let roundNames = "round, source, fallbackReason, counted, createdAt, answeredBy, templateVersion"
    typealias RoundValues = (Int, String, String?, Bool, Double, String?, String?)

    /// The `sessionPrompt` columns every read selects, in the order of ``PromptValues``: each prompt's round first.
    static let promptNames = "round, id, text, wordCount, source, repeatKey"
    typealias PromptValues = (Int, String, String, Int, String, String)

    /// The session this row describes, with its rounds and their prompts (each in order) as read beside it.
    func snapshot(rounds: [RoundValues], prompts: [PromptValues]) throws -> SessionSnapshot {
        var promptsByRound: [Int: [Prompt]] = [:]
        for (round, id, text, wordCount, source, repeatKey) in prompts {
            let source = try StoredValue.decode(PromptSource.self, source)
            promptsByRound[round, default: []].append(Prompt(id: id, text: text, wordCount: wordCount, source: source, repeatKey: repeatKey))
        }
        return SessionSnapshot(
            id: id,
            owner: ownerKey,
            userID: userID,
            locale: LanguageTag(locale: locale),
            photo: try JSONColumn.decode(PhotoMetadata.self, photo),
            template: template,
            refreshesUsed: refreshesUsed,
            createdAt: Date(timeIntervalSince1970: createdAt),
            expiresAt: Date(timeIntervalSince1970: expiresAt),
            surplus: try JSONColumn.decode([ValidPrompt].self, surplus),
            rounds: try rounds.map { round, source, reason, counted, createdAt, answeredBy, version in
                SessionRound(
                    round: round,
                    source: try StoredValue.decode(PromptSource.self, source),
                    fallbackReason: try reason.map { try StoredValue.decode(FallbackReason.self, $0) },
                    counted: counted,
                    prompts: promptsByRound[round] ?? [],
                    createdAt: Date(timeIntervalSince1970: createdAt),
                    answeredBy: try answeredBy.map { try JSONColumn.decode(BackendIdentity.self, $0) },
                    templateVersion: version
                )
            }
        )
    }
}
