import Foundation
import Hummingbird
import PromptDomain
import PromptGeneration
import PromptStores
import PromptTemplates

/// The console's JSON under `/admin`: quality, variants, versions, backends and eval runs; aggregates only.
/// Measures come from ``QualityMeasures`` after a flush, as `GET /admin/stats`'s do, so console and API agree.
struct ConsoleController<Context: RequestContext>: Sendable {
    let templates: TemplateLibrary
    let stats: StatsRecorder
    let store: any StatsStore
    let archive: any ConsoleArchiveStore
    let backends: BackendsReport.Sources
    let clock: any WallClock

    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("quality", use: quality)
            .get("variants", use: variants)
            .get("versions", use: versions)
            .get("versions/:version/render", use: render)
            .get("fixtures", use: fixtures)
            .get("backends", use: showBackends)
            .get("evals", use: evals)
    }

    @Sendable func quality(request: Request, context: Context) async throws -> QualityReport {
        let range = try ConsoleRange(request, defaultTemplate: templates.name, now: clock.now)
        try await stats.flush()
        let query = range.query()
        return QualityReport(range: range, from: range.fromText(of: query), counters: try await store.stats(query))
    }

    @Sendable func variants(request: Request, context: Context) async throws -> VariantComparison {
        let range = try ConsoleRange(request, defaultTemplate: templates.name, now: clock.now)
        try await stats.flush()
        let query = range.query(wholeRange: true, eachLanguage: true)
        let counters = try await store.stats(query)
        let live = templates.live
        let variants = live.name == range.template ? live.variants.map(\.name) : []
        return VariantComparison(range: range, from: range.fromText(of: query), variants: variants, counters: counters)
    }

    @Sendable func versions(request: Request, context: Context) async throws -> VersionsReport {
        let live = templates.live
        try await stats.flush()
        return VersionsReport(
            set: live,
            spans: try await store.versionSpans(template: live.name),
            archived: try await archive.templateVersions(template: live.name),
            now: clock.now
        )
    }

    /// What the version `{version}` sends the model for the fixture photo `?fixture=` (the first by default).
    @Sendable func render(request: Request, context: Context) async throws -> RenderResponse {
        let version = try context.parameters.require("version")
        let fixtures = try loadFixtures()
        let name = request.uri.queryParameters["fixture"].map(String.init)
        guard let fixture = name.map({ name in fixtures.first { $0.name == name } }) ?? fixtures.first else {
            throw APIError(.notFound, code: "fixture_not_found", message: "No fixture photo \"\(name ?? "")\" in the fixtures file.")
        }
        try await stats.flush()
        let template: PromptTemplate
        if let live = templates.live.templates.values.first(where: { $0.identity.version == version }) {
            template = live
        } else if let archived = try await archive.templateVersions(template: templates.name).first(where: { $0.template.version == version }) {
            do {
                template = try PromptTemplate.restore(archived, listsFrom: templates.directory, dictionaries: templates.dictionaries)
            } catch {
                throw APIError(.unprocessableContent, code: "template_invalid", message: "\(error)", details: [error.location])
            }
        } else {
            throw APIError(.notFound, code: "version_not_found", message: "No version \"\(version)\" of \(templates.name) is live or kept.")
        }
        return RenderResponse(template: template, request: fixture.request, copy: templates.live.copy, now: clock.now)
    }

    @Sendable func fixtures(request: Request, context: Context) async throws -> FixturesReport {
        FixturesReport(fixtures: try loadFixtures().map { .init(name: $0.name, locale: $0.request.locale.description) })
    }

    @Sendable func showBackends(request: Request, context: Context) async throws -> BackendsReport {
        BackendsReport(backends, breakers: await backends.breakers())
    }

    @Sendable func evals(request: Request, context: Context) async throws -> EvalRunsReport {
        try EvalRunsReport(try await archive.evalRuns(limit: 50))
    }

    /// The photos operators render versions on: `prompts/fixtures/photos.jsonl`, as `photo-prompts eval` reads it.
    private func loadFixtures() throws -> [EvalFixture] {
        do {
            return try EvalFixture.load(from: "\(templates.directory)/fixtures/photos.jsonl")
        } catch {
            throw APIError(.notFound, code: "fixtures_not_found", message: "\(error)")
        }
    }
}

/// The answer to `GET /admin/fixtures`: the fixture photos a version can be rendered on.
struct FixturesReport: ResponseEncodable, Sendable {
    struct Fixture: Encodable, Sendable {
        var name: String
        var locale: String
    }

    var fixtures: [Fixture]
}

/// The answer to `GET /admin/evals`: the stored eval runs, newest first (``StoredEvalSummary``).
struct EvalRunsReport: ResponseEncodable, Sendable {
    var runs: [StoredEvalSummary]

    init(_ stored: [StoredEvalRun]) throws {
        runs = try stored.map { try SnakeCaseJSON.decoder.decode(StoredEvalSummary.self, from: $0.report) }
    }
}
