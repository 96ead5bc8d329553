import Hummingbird

/// `GET /healthz`: 200 while the process is up. Deliberately checks nothing else, so orchestrators do not
/// restart a healthy process because a dependency is slow.
public struct HealthController<Context: RequestContext>: Sendable {
    public init() {}

    public var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self).get("healthz") { _, _ in
            HealthStatus(status: "ok")
        }
    }

    struct HealthStatus: ResponseEncodable {
        var status: String
    }
}
