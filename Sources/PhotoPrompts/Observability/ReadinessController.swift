import Hummingbird
import PromptDomain
import PromptStores
import PromptTemplates

/// `GET /readyz`: 200 when this instance can serve prompts, 503 otherwise, with each check's result.
///
/// Unlike `/healthz` (the process is up), readiness looks at what this instance needs: the database answers. The
/// templates' live versions are reported, never a reason for 503: start-up fails without them and a broken edit is
/// refused while the last good version serves, so a running service always has them. The backends' state is
/// reported but never makes it 503 either: the model provider is shared by every instance, so a provider outage
/// would drain them all at once, and an instance whose backends are all unavailable still answers with fallbacks.
/// Nor are the gate's dictionaries, which open in the background at start-up: a request that needs one before it
/// is open waits for that one only.
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
