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
    }

    struct Checks: Encodable {
        var mustEndWithQuestionMark: Bool
        var rejectLinks: Bool
        var blockedWords: [String]
    }

    struct Live: Encodable {
        var loadedAt: String
        var variants: [Variant]
        /// The languages of the product's copy that serve, from `copy/<tag>.json`.
        var copyLocales: [String]
    }

    struct Rejected: Encodable {
        var at: String
        var trigger: String
        var file: String
        @ExplicitNull var line: Int?
        var reason: String
        /// The content hash of the refused files, when they could be read: the version that would have served.
        @ExplicitNull var version: String?
    }

    var template: String
    var directory: String
    var live: Live
    @ExplicitNull var rejected: Rejected?

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
}
