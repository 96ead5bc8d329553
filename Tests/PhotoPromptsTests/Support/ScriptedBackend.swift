import Synchronization

@testable import PhotoPrompts

/// A backend that streams each reply's lines, one at a time, to the request's observer, then answers with them (or
/// fails after streaming). Call n gets `replies[n]`, the last reply again after that; each request is kept.
final class ScriptedBackend: LLMBackend {
    let identity: BackendIdentity
    private let replies: [[String]]
    private let failing: Bool
    private let requests = Mutex<[LLMRequest]>([])

    init(name: String, replies: [[String]], thenFails failing: Bool = false) {
        identity = BackendIdentity(provider: "scripted", model: name)
        self.replies = replies
        self.failing = failing
    }

    convenience init(name: String, streams lines: [String], thenFails failing: Bool) {
        self.init(name: name, replies: [lines], thenFails: failing)
    }

    var calls: Int { requests.withLock { $0.count } }
    var received: [LLMRequest] { requests.withLock { $0 } }

    func complete(_ request: LLMRequest, timeout: Duration) async throws -> LLMReply {
        let call = requests.withLock { requests in
            requests.append(request)
            return requests.count - 1
        }
        let lines = replies[min(call, replies.count - 1)]
        for line in lines { ReplyObservation.current?.received(line + "\n") }
        if failing { throw BackendError.httpStatus(500, detail: "scripted failure after streaming") }
        return LLMReply(text: lines.joined(separator: "\n"), finishReason: .stop)
    }
}
