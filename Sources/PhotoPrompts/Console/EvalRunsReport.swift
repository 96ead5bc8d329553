import Foundation
import Hummingbird
import PromptDomain
import PromptStores

/// The answer to `GET /admin/evals`: the stored eval runs, newest first, each as `photo-prompts eval --store`
/// wrote it (``StoredEvalSummary``).
struct EvalRunsReport: ResponseEncodable, Sendable {
    var runs: [StoredEvalSummary]

    init(_ stored: [StoredEvalRun]) throws {
        runs = try stored.map { try SnakeCaseJSON.decoder.decode(StoredEvalSummary.self, from: $0.report) }
    }
}
