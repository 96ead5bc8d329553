import HTTPTypes
import Hummingbird

/// 405 with an `Allow` header for a method a route does not have, instead of the router's 404.
///
/// Hummingbird's router answers 404 for any method it has no handler for; HTTP (and the OpenAPI contract) says a
/// known path with the wrong method is 405. These are the service's routes and their methods, as `openapi.yaml`
/// lists them; the contract test checks that every one of them is served.
enum MethodNotAllowed {
    /// The app's routes, and the operators' when `/admin` is enabled.
    static func routes(adminEnabled: Bool) -> [(path: String, methods: [HTTPRequest.Method])] {
        var routes: [(path: String, methods: [HTTPRequest.Method])] = [
            ("/v1/prompts", [.post]),
            ("/v1/sessions/:session_id", [.get]),
            ("/v1/sessions/:session_id/refresh", [.post]),
            ("/v1/sessions/:session_id/feedback", [.post]),
            ("/v1/users/:user_id", [.delete]),
            ("/v1/users/:user_id/export", [.get]),
            ("/healthz", [.get]),
            ("/readyz", [.get]),
        ]
        if adminEnabled {
            routes += [
                ("/metrics", [.get]),
                ("/admin/templates", [.get]),
                ("/admin/templates/reload", [.post]),
                ("/admin/templates/:name/render", [.post]),
                ("/admin/stats", [.get]),
            ]
        }
        return routes
    }

    /// Registers a 405 responder for every other common method on each route.
    static func register<Context: RequestContext>(on router: Router<Context>, adminEnabled: Bool) {
        var methods: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete, .options, .trace]
        if let query = HTTPRequest.Method("QUERY") { methods.append(query) }
        for route in routes(adminEnabled: adminEnabled) {
            let allowed = route.methods.map(\.rawValue)
            // HEAD stays with GET routes, which answer it; elsewhere it is one more method the route does not have.
            let refused = route.methods.contains(.get) ? methods : methods + [.head]
            for method in refused where !route.methods.contains(method) {
                router.on(RouterPath(stringLiteral: route.path), method: method) { _, _ -> Response in
                    var error = APIError(
                        .methodNotAllowed,
                        code: "method_not_allowed",
                        message: "This route accepts \(allowed.joined(separator: ", "))."
                    )
                    error.allowedMethods = allowed
                    throw error
                }
            }
        }
    }
}
