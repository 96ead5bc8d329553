import Foundation
import Hummingbird
import PromptDomain
import PromptStores
import PromptTemplates

/// The range, bucket size and language a console request asks about, from its query string: `template`, `window`
/// (`7d`, as `GET /admin/stats` reads it), `bucket` (`hour` or `day`) and `language` (a tag, or none for all).
struct ConsoleRange: Sendable {
    var template: String
    var from: Date
    var to: Date
    var bucket: Bucket
    var language: LanguageTag?

    enum Bucket: String, Sendable {
        case hour, day

        var seconds: Int { self == .hour ? 3600 : 86_400 }
    }

    /// Reads the query string; the default is the configured template over the last 7 days, by day, every language.
    /// - Throws: ``APIError`` naming the field that is not valid.
    init(_ request: Request, defaultTemplate: String, now: Date) throws {
        let parameters = request.uri.queryParameters
        template = parameters["template"].map(String.init) ?? defaultTemplate
        guard PromptTemplate.isValidName(template) else {
            throw APIError.invalidField("template", "must be a template folder's name: letters, digits, '-' and '_'")
        }
        let window = try StatsWindow.parse(parameters["window"].map(String.init) ?? "7d")
        to = now
        from = now.addingTimeInterval(-window)
        if let text = parameters["bucket"].map(String.init) {
            guard let bucket = Bucket(rawValue: text) else { throw APIError.invalidField("bucket", "must be hour or day") }
            self.bucket = bucket
        } else {
            bucket = window > 2 * 86_400 ? .day : .hour
        }
        if let text = parameters["language"].map(String.init), !text.isEmpty {
            guard let tag = LanguageTag(text) else { throw APIError.invalidField("language", "must be a language tag such as es or pt-BR") }
            language = tag
        }
    }

    /// The store query: bucketed (or one bucket for the range), per language or all. Daily points, and whole ranges
    /// over 2 days, read daily sums from the UTC midnight before `from`: a year is 365 rows a series, not 8760.
    func query(wholeRange: Bool = false, eachLanguage: Bool = false) -> StatsQuery {
        let languages: LanguageSelection = language.map { .one($0.description) } ?? (eachLanguage ? .each : .all)
        let resolution: StatsQuery.Resolution = (wholeRange ? to.timeIntervalSince(from) > 2 * 86_400 : bucket == .day) ? .day : .hour
        return StatsQuery(
            template: template,
            from: from,
            to: to,
            languages: languages,
            bucketSeconds: wholeRange ? nil : bucket.seconds,
            resolution: resolution
        )
    }

    /// The start of what `query` reads, ISO 8601.
    func fromText(of query: StatsQuery) -> String { Date(timeIntervalSince1970: Double(query.firstBucket)).formatted(.iso8601) }

    var toText: String { to.formatted(.iso8601) }
}
