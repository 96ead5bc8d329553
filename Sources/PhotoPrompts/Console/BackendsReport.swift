import Foundation
import Hummingbird
import PromptDomain
import PromptGeneration

/// The answer to `GET /admin/backends`: per backend of the chain, since this instance started, the numbers
/// `/metrics` counts (calls by outcome, latency, tokens), its breaker now and the structured-output mode configured.
struct BackendsReport: ResponseEncodable, Sendable {
    struct Backend: Encodable, Sendable {
        /// `provider/model`, as `/metrics` labels it.
        var backend: String
        var position: Int
        /// `LLM_STRUCTURED_OUTPUT` as configured (`auto` learns per server); `null` for a backend a test handed in.
        var structuredOutput: String?
        /// `closed`, `open` or `half_open`.
        var breaker: String
        var calls: Int
        /// Calls by outcome: `ok`, `timeout`, `http_500`, `skipped`, …
        var outcomes: [String: Int]
        /// Calls that did not end `ok` (skips excluded: no call was made), by outcome.
        var errors: [String: Int]
        var latencyMeanMs: Double?
        var latencyP50Ms: Double?
        var latencyP95Ms: Double?
        var tokens: [String: Int]
    }

    /// What the report reads: the chain and its breakers, the configured modes, and the tally.
    struct Sources: Sendable {
        var identities: [BackendIdentity]
        var modes: [String]?
        var breakers: @Sendable () async -> [(backend: String, state: Double)]
        var tally: BackendTally
        var startedAt: Date
    }

    /// When the counts began: this instance's start.
    var since: String
    var backends: [Backend]

    /// `breakers` is what `sources.breakers` said just now.
    init(_ sources: Sources, breakers: [(backend: String, state: Double)]) {
        since = sources.startedAt.formatted(.iso8601)
        let tally = sources.tally.snapshot
        backends = sources.identities.enumerated().map { position, identity in
            let name = "\(identity.provider)/\(identity.model)"
            let entry = tally[name] ?? BackendTally.Entry()
            let state = breakers.indices.contains(position) ? breakers[position].state : 0
            let made = entry.outcomes.filter { $0.key != "skipped" }.values.reduce(0, +)
            return Backend(
                backend: name,
                position: position + 1,
                structuredOutput: sources.modes.flatMap { $0.indices.contains(position) ? $0[position] : nil },
                breaker: state >= 1 ? "open" : state > 0 ? "half_open" : "closed",
                calls: entry.outcomes.values.reduce(0, +),
                outcomes: entry.outcomes,
                errors: entry.outcomes.filter { $0.key != "ok" && $0.key != "skipped" },
                latencyMeanMs: made > 0 ? entry.totalMilliseconds / Double(made) : nil,
                latencyP50Ms: LatencyHistogram.quantile(0.5, of: entry.latency),
                latencyP95Ms: LatencyHistogram.quantile(0.95, of: entry.latency),
                tokens: entry.tokens
            )
        }
    }
}
