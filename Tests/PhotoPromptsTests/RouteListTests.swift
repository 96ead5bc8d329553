import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PhotoPromptsTestSupport
import Testing

@testable import PhotoPrompts

/// The routes ``buildRouter(_:)`` adds, `openapi.yaml` and the 405 answers stay one list. (The full contract check,
/// every route's bodies and statuses against the schemas, is schemathesis in `scripts/contract/run.sh`, which
/// `make test` runs after the Swift tests.)
@Suite("The route list, the OpenAPI contract and 405")
struct RouteListTests {
    static let specification = URL(fileURLWithPath: repositoryPromptsDirectory).deletingLastPathComponent().appendingPathComponent("openapi.yaml")

    /// `path → methods` from the spec's `paths:` block, read line by line (two-space path keys, four-space methods).
    static func documentedRoutes() throws -> [String: Set<String>] {
        let text = try String(contentsOf: specification, encoding: .utf8)
        var routes: [String: Set<String>] = [:]
        var current: String?
        var inPaths = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "paths:" {
                inPaths = true
                continue
            }
            if inPaths, !line.isEmpty, !line.hasPrefix(" ") { break }
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                current = String(line.dropFirst(2).dropLast())
                routes[current!] = []
            } else if let path = current, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let method = line.trimmingCharacters(in: .whitespaces).dropLast().uppercased()
                if ["GET", "POST", "PUT", "PATCH", "DELETE"].contains(method) { routes[path]?.insert(method) }
            }
        }
        return routes
    }

    static let adminKey = "route-list-test-admin-key"

    static func services(adminKey: String?) throws -> AppServices {
        var environment = [
            "DATABASE_PATH": scratchPath("routes").path,
            "PROMPTS_DIRECTORY": repositoryPromptsDirectory,
            "PROMPTS_WATCH_INTERVAL": "0",
        ]
        environment["ADMIN_API_KEY"] = adminKey
        return try buildServices(try configuration(environment), dependencies: .live, logger: Logger(label: "route-list-test"))
    }

    static func served(_ services: AppServices) -> [String: Set<String>] {
        let router = Router(context: AppRequestContext.self)
        addRoutes(of: services, to: router)
        return Dictionary(MethodNotAllowed.routes(of: router).map { ($0.path.description, Set($0.methods.map(\.rawValue))) }) { $0.union($1) }
    }

    @Test("Every documented route and method is served, and every served route is documented")
    func routesMatchTheSpecification() throws {
        let documented = try Self.documentedRoutes()
        #expect(documented.count >= 13)
        #expect(Self.served(try Self.services(adminKey: Self.adminKey)) == documented)
        // Without an admin key, the operators' routes are not served at all.
        #expect(Self.served(try Self.services(adminKey: nil)) == documented.filter { !$0.key.hasPrefix("/admin") && $0.key != "/metrics" })
    }

    @Test("Every other method on a documented route is a 405 naming the route's methods in Allow")
    func otherMethodsAre405() async throws {
        let services = try Self.services(adminKey: Self.adminKey)
        let app = Application(router: buildRouter(services))
        let documented = try Self.documentedRoutes()
        try await app.test(.router) { client in
            for (path, methods) in documented {
                let concrete = path.replacingOccurrences(of: "{session_id}", with: "s_unknown")
                    .replacingOccurrences(of: "{user_id}", with: "u_1").replacingOccurrences(of: "{name}", with: "photo-journal")
                for method in [HTTPRequest.Method.trace, .put, .patch] {
                    let refused = try await client.execute(uri: concrete, method: method, headers: [.authorization: "Bearer \(Self.adminKey)"])
                    #expect(refused.status == .methodNotAllowed, "\(method) \(path)")
                    #expect(refused.headers[.allow] == methods.sorted().joined(separator: ", "), "Allow for \(path)")
                }
            }
        }
    }
}
