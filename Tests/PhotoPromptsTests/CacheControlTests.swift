import HTTPTypes
import Hummingbird
import Testing

@testable import PhotoPrompts

@Suite("Cache-Control: no-cache, in any case and among other directives, skips the cache read")
struct CacheControlTests {
    static func readsCache(_ values: [String]) -> Bool {
        var fields = HTTPFields()
        for value in values { fields.append(HTTPField(name: .cacheControl, value: value)) }
        let head = HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/v1/prompts", headerFields: fields)
        return PromptsController.readsCache(Request(head: head, body: RequestBody(buffer: ByteBuffer())))
    }

    @Test(
        "Each of these asks for a fresh answer",
        arguments: [["no-cache"], ["No-Cache"], ["max-age=0, no-cache"], ["max-age=0,\tno-cache "], ["private", " NO-CACHE"]]
    )
    func noCache(values: [String]) {
        #expect(!Self.readsCache(values))
    }

    @Test("Each of these reads the cache", arguments: [[], ["max-age=0"], ["no-store"], ["no-cache-please"], ["private, no-cachex"]])
    func readsTheCache(values: [String]) {
        #expect(Self.readsCache(values))
    }
}
