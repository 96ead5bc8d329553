import HTTPTypes
import Hummingbird

/// 405 with an `Allow` header for a method a route does not have, as HTTP and the OpenAPI contract say, instead of
/// the router's 404. Routes are read from the router itself, so they are listed once, in ``buildRouter(_:)``.
enum MethodNotAllowed {
    /// The router's routes, each path (written as OpenAPI does, `/v1/sessions/{session_id}`) with its methods.
    static func routes<Context: RequestContext>(of router: Router<Context>) -> [(path: RouterPath, methods: [HTTPRequest.Method])] {
        var methods: [String: [HTTPRequest.Method]] = [:]
        var paths: [RouterPath] = []
        for route in router.routes {
            if methods[route.path.description] == nil { paths.append(route.path) }
            methods[route.path.description, default: []].append(route.method)
        }
        return paths.map { ($0, methods[$0.description] ?? []) }
    }

    /// Registers a 405 for every other common method on each route. Call it once, after every route is added.
    static func register<Context: RequestContext>(on router: Router<Context>) {
        var methods: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete, .options, .trace]
        if let query = HTTPRequest.Method("QUERY") { methods.append(query) }
        for route in routes(of: router) {
            let allowed = route.methods.map(\.rawValue).sorted()
            // HEAD stays with GET routes, which answer it; elsewhere it is one more method the route does not have.
            let refused = route.methods.contains(.get) ? methods : methods + [.head]
            for method in refused where !route.methods.contains(method) {
                router.on(route.path, method: method) { _, _ -> Response in
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
