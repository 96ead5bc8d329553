import Foundation
import Hummingbird
import PromptBackends
import PromptDomain
import PromptGeneration
import PromptStores
import PromptTemplates

/// The operators' API under `/admin`, behind ``AdminAuthMiddleware``: see and reload templates, render one for a
/// photo, and read per-version stats.
struct AdminController<Context: RequestContext>: Sendable {
    let templates: TemplateLibrary
    let stats: StatsRecorder
    let store: any StatsStore
    let clock: any WallClock

    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("templates", use: listTemplates)
            .post("templates/reload", use: reload)
            .post("templates/:name/render", use: render)
            .get("stats", use: showStats)
    }

    @Sendable func listTemplates(request: Request, context: Context) async throws -> TemplatesReport {
        TemplatesReport(templates.status, directory: templates.directory)
    }

    /// 200 with the versions now live, or 422 naming the file and line of a broken edit (the old version serves on).
    @Sendable func reload(request: Request, context: Context) async throws -> ReloadResponse {
        switch templates.reload(trigger: "admin") {
        case .loaded(let set):
            return ReloadResponse(outcome: "loaded", versions: set.versions)
        case .unchanged(let set):
            return ReloadResponse(outcome: "unchanged", versions: set.versions)
        case .rejected(let rejection):
            throw APIError(
                .unprocessableContent,
                code: "template_rejected",
                message: "\(rejection.error). The previous version keeps serving.",
                details: [rejection.error.location]
            )
        }
    }

    /// What a first request for the posted photo would send to the model with the template as it is on disk now,
    /// live or not: operators render an edit before they reload it.
    @Sendable func render(request: Request, context: Context) async throws -> RenderResponse {
        let name = try context.parameters.require("name")
        let body = try await JSONRequestDecoder.decode(PromptRequest.self, from: request).validated()
        guard PromptTemplate.isValidName(name),
            FileManager.default.fileExists(atPath: URL(fileURLWithPath: templates.directory).appendingPathComponent(name).path)
        else {
            throw APIError(.notFound, code: "template_not_found", message: "No template folder \"\(name)\" in \(templates.directory).")
        }
        let template: PromptTemplate
        do {
            template = try PromptTemplate.load(name: name, from: templates.directory, dictionaries: templates.dictionaries)
        } catch {
            throw APIError(.unprocessableContent, code: "template_invalid", message: "\(error)", details: [error.location])
        }
        return RenderResponse(template: template, request: body, copy: templates.live.copy, now: clock.now)
    }

    @Sendable func showStats(request: Request, context: Context) async throws -> TemplateStatsReport {
        let name = request.uri.queryParameters["template"].map(String.init) ?? templates.name
        let window = try StatsWindow.parse(request.uri.queryParameters["window"].map(String.init))
        // Counts still in memory belong in the answer: an operator checking a change expects to see it.
        try await stats.flush()
        let to = clock.now
        let from = to.addingTimeInterval(-window)
        // One bucket for the whole window: the sums are made in the database.
        let query = StatsQuery(template: name, from: from, to: to, bucketSeconds: nil)
        return TemplateStatsReport(template: name, from: from, to: to, counters: try await store.stats(query))
    }
}

/// The answer to `POST /admin/templates/reload`.
struct ReloadResponse: ResponseEncodable {
    /// `loaded` or `unchanged`.
    var outcome: String
    /// Folder name to version, as now live.
    var versions: [String: String]
}

/// The answer to `POST /admin/templates/{name}/render`.
struct RenderResponse: ResponseEncodable {
    var template: TemplateIdentity
    var parameters: Parameters
    var system: String
    var user: String
    /// The GBNF grammar a llama.cpp server is sent with `LLM_STRUCTURED_OUTPUT=grammar` (or `auto` on llama.cpp).
    var grammar: String
    /// The template's own fallbacks that pass the word rule for this photo, in order of use.
    var fallbacks: [String]

    /// Every sampling parameter the model gets, so an operator (or the real-model check) sees what is sent.
    struct Parameters: Encodable {
        var temperature: Double?
        var maxTokens: Int
        var candidateCount: Int
        var dryMultiplier: Double?
        var seed: Int?
    }

    /// What `template` sends for `request`'s photo: the plan's own model call (``RequestPlan/modelRequest(round:avoiding:)``),
    /// as the generator sends it, and the template's fallbacks that pass the word rule for the photo.
    init(template: PromptTemplate, request: ValidatedPromptRequest, copy: CopyCatalog, now: Date) {
        let plan = RequestPlan.oneOff(template, copy: copy, photo: request.photo, language: request.locale, now: now)
        let sent = plan.modelRequest(round: 0, avoiding: [])
        self.template = plan.template
        parameters = Parameters(
            temperature: sent.parameters.temperature,
            maxTokens: sent.maxTokens,
            candidateCount: plan.candidateCount,
            dryMultiplier: sent.parameters.dryMultiplier,
            seed: sent.parameters.seed
        )
        system = sent.system
        user = sent.userText
        grammar = sent.constraint.map(PromptGrammar.gbnf(for:)) ?? ""
        fallbacks = plan.templateFallbacks
    }
}

/// `window=30m`, `24h` or `7d`: 1 to 6 digits and a unit. Default 24h; longer than 400 days reads as 400 days.
enum StatsWindow {
    static let longest: TimeInterval = 400 * 86_400

    static func parse(_ text: String?) throws -> TimeInterval {
        guard let text else { return 86_400 }
        let units: [Character: TimeInterval] = ["m": 60, "h": 3600, "d": 86_400]
        let digits = text.dropLast()
        guard let unit = text.last.flatMap({ units[$0] }), (1...6).contains(digits.count), digits.allSatisfy(\.isASCII),
            let amount = Int(digits)
        else {
            throw APIError.invalidField("window", "must be 1 to 6 digits followed by m, h or d, e.g. 24h")
        }
        return min(Double(amount) * unit, longest)
    }
}
