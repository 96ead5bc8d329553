import Foundation
import Hummingbird
import PromptTemplates

/// The answer to `GET /admin/templates`: what serves now and the last edit that was refused.
struct TemplatesReport: ResponseEncodable {
    struct Variant: Encodable {
        var name: String
        var version: String
        var weight: Int
        var candidateCount: Int
        var checks: Checks
        var ownFallbacks: Int

        enum CodingKeys: String, CodingKey {
            case name, version, weight, checks
            case candidateCount = "candidate_count"
            case ownFallbacks = "own_fallbacks"
        }
    }

    struct Checks: Encodable {
        var mustEndWithQuestionMark: Bool
        var rejectLinks: Bool
        var blockedWords: [String]

        enum CodingKeys: String, CodingKey {
            case mustEndWithQuestionMark = "must_end_with_question_mark"
            case rejectLinks = "reject_links"
            case blockedWords = "blocked_words"
        }
    }

    struct Live: Encodable {
        var loadedAt: String
        var variants: [Variant]
        /// The languages of the product's copy that serve, from `copy/<tag>.json`.
        var copyLocales: [String]

        enum CodingKeys: String, CodingKey {
            case variants
            case loadedAt = "loaded_at"
            case copyLocales = "copy_locales"
        }
    }

    struct Rejected: Encodable {
        var at: String
        var trigger: String
        var file: String
        var line: Int?
        var reason: String
        /// The content hash of the refused files, when they could be read: the version that would have served.
        var version: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(at, forKey: .at)
            try container.encode(trigger, forKey: .trigger)
            try container.encode(file, forKey: .file)
            try container.encode(line, forKey: .line)
            try container.encode(reason, forKey: .reason)
            try container.encode(version, forKey: .version)
        }

        enum CodingKeys: String, CodingKey {
            case at, trigger, file, line, reason, version
        }
    }

    var template: String
    var directory: String
    var live: Live
    var rejected: Rejected?

    init(_ status: TemplateStatus, directory: String) {
        let set = status.live
        template = set.name
        self.directory = directory
        live = Live(
            loadedAt: status.loadedAt.formatted(.iso8601),
            variants: set.variants.compactMap { variant in
                guard let template = set.templates[variant.name] else { return nil }
                let checks = template.settings.checks
                return Variant(
                    name: variant.name,
                    version: template.identity.version,
                    weight: variant.weight,
                    candidateCount: template.settings.candidateCount,
                    checks: Checks(
                        mustEndWithQuestionMark: checks.mustEndWithQuestionMark,
                        rejectLinks: checks.rejectsLinks,
                        blockedWords: checks.blockedWords
                    ),
                    ownFallbacks: template.fallbacks.lines.count
                )
            },
            copyLocales: set.copy.locales
        )
        rejected = status.rejected.map { rejection in
            let folder = rejection.error.file.split(separator: "/").first.map(String.init) ?? set.name
            return Rejected(
                at: rejection.at.formatted(.iso8601),
                trigger: rejection.trigger,
                file: rejection.error.file,
                line: rejection.error.line,
                reason: rejection.error.message,
                version: PromptTemplate.fileVersion(name: folder, from: directory)
            )
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(template, forKey: .template)
        try container.encode(directory, forKey: .directory)
        try container.encode(live, forKey: .live)
        try container.encode(rejected, forKey: .rejected)
    }

    enum CodingKeys: String, CodingKey {
        case template, directory, live, rejected
    }
}
