import Foundation
import Hummingbird
import PromptStores

/// The answer to `GET /admin/evals`: the stored eval runs, newest first, each as `photo-prompts eval --store`
/// wrote it (``StoredEvalSummary``).
struct EvalRunsReport: ResponseEncodable, Sendable {
    var runs: [StoredEvalSummary]

    init(_ stored: [StoredEvalRun]) throws {
        let decoder = JSONDecoder()
        runs = try stored.map { try decoder.decode(StoredEvalSummary.self, from: $0.report) }
    }
}
