import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

/// The admin routes' access and the template preview, in process: none of it is about a socket.
@Suite("The admin API's key and its render preview, through the router")
struct AdminRouteTests {
    @Test("Without ADMIN_API_KEY, /admin does not exist: 404 with the usual JSON error")
    func disabledWithoutKey() async throws {
        var environment = baseEnvironment()
        environment["ADMIN_API_KEY"] = nil
        try await withRouterService(environment) { client in
            for (method, path) in [("GET", "/templates"), ("POST", "/templates/reload"), ("GET", "/stats")] {
                let reply = try await client.admin(method, path)
                #expect(reply.status == 404, "\(method) \(path)")
                #expect(reply.errorCode == "not_found")
            }
        }
    }

    @Test(
        "A missing, wrong or differently sized key is 401; the right one is 200",
        arguments: [
            (nil as String?, 401), ("wrong-key-0123456789xx", 401), (testAdminKey + "x", 401), (String(testAdminKey.dropLast()), 401),
            (testAdminKey, 200),
        ]
    )
    func keyRequired(key: String?, status: Int) async throws {
        let prompts = try TemporaryPrompts()
        try await withRouterService(operatorEnvironment(prompts: prompts)) { client in
            for (method, path) in [("GET", "/templates"), ("POST", "/templates/reload"), ("GET", "/stats")] {
                let reply = try await client.admin(method, path, key: key)
                #expect(reply.status == status, "\(method) \(path)")
                if status == 401 { #expect(reply.errorCode == "unauthorized") }
            }
        }
    }

    @Test("The render preview is the model call the backend is sent for the same photo (messages, max_tokens), in four languages and scripts")
    func previewTokenLimitIsSent() async throws {
        let prompts = try TemporaryPrompts()
        // What the model answers does not matter here: only what it is sent.
        let backend = ScriptedBackend(name: "m", replies: [["What did the water sound like at Praia da Rocha that day?"]])
        try await withRouterService(operatorEnvironment(prompts: prompts), backends: [backend]) { client in
            for locale in ["en-US", "de-DE", "ja-JP", "hi-IN"] {
                let body = #"{"locale": "\#(locale)", "photo": {"labels": ["beach"], "location": {"name": "Praia da Rocha"}}}"#
                let answer = try await client.post("/v1/prompts", json: body, headers: [("Cache-Control", "no-cache")])
                let variant = try #require(answer.lookup["template", "variant"].string ?? answer.lookup["template", "name"].string)
                let preview = try await client.admin("POST", "/templates/\(variant)/render", body: body).lookup
                let sent = try #require(backend.received.last, "no model call for \(locale)")
                #expect(preview["parameters", "max_tokens"].int == sent.maxTokens, "\(locale) \(variant)")
                #expect(preview["system"].string == sent.system, "\(locale) \(variant)")
                // The first user message: a re-ask adds the model's reply and the feedback after it.
                #expect(preview["user"].string == sent.messages.first?.content, "\(locale) \(variant)")
            }
        }
    }

    @Test("POST /admin/templates/{name}/render shows the messages a photo would send, with the template as on disk")
    func renderRoute() async throws {
        let prompts = try TemporaryPrompts()
        try prompts.addVariant("draft", marker: "Draft instructions, not live yet.")
        try await withRouterService(operatorEnvironment(prompts: prompts)) { client in
            let reply = try await client.admin("POST", "/templates/draft/render", body: samplePhotoRequest)
            #expect(reply.status == 200)
            let body = reply.lookup
            #expect(body["template", "name"].string == "draft")
            #expect(body["system"].string?.contains("Draft instructions, not live yet.") == true)
            #expect(body["user"].string?.contains("Photo taken at Praia da Rocha, Portimão, Portugal") == true)
            // 17:42 UTC at 8.5° W is 16:42 solar time.
            #expect(body["user"].string?.contains("in the afternoon") == true)
            #expect(body["parameters", "candidate_count"].int == 8)

            let live = try await client.admin("POST", "/templates/photo-journal-b/render", body: samplePhotoRequest).lookup
            let fallbacks = live["fallbacks"].array.compactMap { $0 as? String }
            #expect(fallbacks.first == "What drew you to Praia da Rocha on this afternoon, and what stayed with you?")

            let unknown = try await client.admin("POST", "/templates/nowhere/render", body: samplePhotoRequest)
            #expect(unknown.status == 404)
            #expect(unknown.errorCode == "template_not_found")
            let escape = try await client.admin("POST", "/templates/..%2F..%2Fetc/render", body: samplePhotoRequest)
            #expect(escape.status == 404)

            try prompts.write("draft/system.mustache", "{{#unclosed}}\n")
            let broken = try await client.admin("POST", "/templates/draft/render", body: samplePhotoRequest)
            #expect(broken.status == 422)
            #expect(broken.errorDetails.first?.hasPrefix("draft/system.mustache:") == true)

            let badPhoto = try await client.admin("POST", "/templates/draft/render", body: #"{"photo": {"people_count": -1}}"#)
            #expect(badPhoto.status == 400)
            #expect(badPhoto.errorDetails == ["photo.people_count"])
        }
    }
}
