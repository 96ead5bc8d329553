import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

extension SystemTests {
    /// The served routes and `openapi.yaml` stay one list. (The full contract check, every route's bodies and statuses
    /// against the schemas, is schemathesis in `scripts/contract/run.sh`, which `make test` runs after these tests.)
    @Suite("The OpenAPI contract and the routes served")
    struct ContractTests {
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

        @Test("Every documented route and method is served, and every served route is documented")
        func routesMatchTheSpecification() async throws {
            let documented = try Self.documentedRoutes()
            #expect(documented.count >= 13)
            let prompts = try TemporaryPrompts()
            try await withService(operatorEnvironment(stub: nil, prompts: prompts)) { client in
                for (path, methods) in documented {
                    let concrete = path.replacingOccurrences(of: "{session_id}", with: "s_unknown")
                        .replacingOccurrences(of: "{user_id}", with: "u_1").replacingOccurrences(of: "{name}", with: "photo-journal")
                    for method in methods {
                        let headers = path.hasPrefix("/admin") || path == "/metrics" ? [("Authorization", "Bearer \(testAdminKey)")] : []
                        let reply = try await client.send(method, concrete, headers: headers)
                        #expect(reply.status != 405 && reply.errorCode != "not_found", "\(method) \(path) is documented but not served")
                    }
                    let refused = try await client.send("TRACE", concrete)
                    #expect(refused.status == 405, "TRACE \(path)")
                    #expect(refused.headers["allow"] == methods.sorted().joined(separator: ", "), "Allow for \(path)")
                }
            }
        }
    }
}
