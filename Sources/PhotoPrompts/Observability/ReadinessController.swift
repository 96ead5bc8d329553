import Hummingbird
import PromptDomain
import PromptStores
import PromptTemplates

/// `GET /readyz`: 200 when the database answers, 503 otherwise, with each check's result. Templates, backends and
/// dictionaries are reported, never a 503: a running service always has templates, a shared provider's outage would
/// drain every instance at once (fallbacks still answer), and a dictionary still opening delays only its requests.
struct ReadinessController<Context: RequestContext>: Sendable {
    let store: any StoreMaintenance
    let templates: TemplateLibrary
    let deadlines: DeadlineWatch
    let breakers: @Sendable () async -> [(backend: String, state: Double)]

    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self).get("readyz", use: check)
    }

    @Sendable func check(request: Request, context: Context) async throws -> EditedResponse<Readiness> {
        var checks: [String: String] = [:]
        var ready = true
        do {
            // A database that is gone can leave a pool waiting for a connection: readiness answers by its deadline.
            try await deadlines.answer(by: .now + Self.databaseDeadline) { [store] in try await store.ping() }
            checks["database"] = "ok"
        } catch {
            checks["database"] = "failing"
            ready = false
            context.logger.error("readiness: the database does not answer", metadata: ["error": "\(error)"])
        }
        checks["templates"] = TemplateLibrary.describe(templates.live.versions)
        checks["dictionaries"] = templates.dictionaries.startUp.rawValue
        let states = await breakers()
        let available = states.filter { $0.state < 1 }.count
        checks["backends"] = "\(available) of \(states.count) available"
        return EditedResponse(status: ready ? .ok : .serviceUnavailable, response: Readiness(status: ready ? "ready" : "not_ready", checks: checks))
    }

    /// How long the database has to answer readiness's query: a probe is asked again within seconds anyway.
    static var databaseDeadline: Duration { .seconds(2) }

    struct Readiness: ResponseEncodable {
        var status: String
        var checks: [String: String]
    }
}
