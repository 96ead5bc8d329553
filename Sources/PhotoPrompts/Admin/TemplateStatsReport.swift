import Foundation
import Hummingbird
import PromptDomain

/// The answer to `GET /admin/stats`: per variant and version, how its prompts did over a window.
public struct TemplateStatsReport: ResponseEncodable, Sendable {
    /// One template version's numbers.
    public struct Version: Encodable, Sendable {
        /// The variant's folder.
        public var variant: String
        /// The version's content hash.
        public var version: String
        /// Answers shown: first rounds plus refreshes.
        public var requests: Int
        /// Sessions started.
        public var sessions: Int
        /// Refreshes answered.
        public var refreshes: Int
        /// Sessions in which the user selected a prompt.
        public var sessionsWithSelection: Int
        /// `sessionsWithSelection / sessions`, or `null` without sessions.
        public var selectionRate: Double?
        /// Feedback received, by action.
        public var feedback: [String: Int]
        /// Answers by source: model, cache, fallback.
        public var sources: [String: Int]
        /// Share of answers with at least one fallback prompt.
        public var fallbackRate: Double?
        /// Whole-answer fallbacks by reason.
        public var fallbacksByReason: [String: Int]
        /// Share of backend answers that needed a re-ask.
        public var reaskRate: Double?
        /// Share of the model's candidates that passed the word rule and checks.
        public var passRate: Double?
        /// Rejected candidates by reason.
        public var rejections: [String: Int]
        /// Tokens the providers reported for this version's backend calls: `prompt`, `completion`.
        public var tokens: [String: Int]
        /// Prompt and completion tokens per session started: what an operator pays for one photo, refreshes included.
        public var tokensPerSession: Double?

        enum CodingKeys: String, CodingKey {
            case variant, version, requests, sessions, refreshes, feedback, sources, rejections
            case sessionsWithSelection = "sessions_with_selection"
            case selectionRate = "selection_rate"
            case fallbackRate = "fallback_rate"
            case fallbacksByReason = "fallbacks_by_reason"
            case reaskRate = "reask_rate"
            case passRate = "pass_rate"
            case tokens
            case tokensPerSession = "tokens_per_session"
        }

        /// Writes rates as `null` when there is nothing to divide by, rather than omitting them.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(variant, forKey: .variant)
            try container.encode(version, forKey: .version)
            try container.encode(requests, forKey: .requests)
            try container.encode(sessions, forKey: .sessions)
            try container.encode(refreshes, forKey: .refreshes)
            try container.encode(sessionsWithSelection, forKey: .sessionsWithSelection)
            try container.encode(selectionRate, forKey: .selectionRate)
            try container.encode(feedback, forKey: .feedback)
            try container.encode(sources, forKey: .sources)
            try container.encode(fallbackRate, forKey: .fallbackRate)
            try container.encode(fallbacksByReason, forKey: .fallbacksByReason)
            try container.encode(reaskRate, forKey: .reaskRate)
            try container.encode(passRate, forKey: .passRate)
            try container.encode(rejections, forKey: .rejections)
            try container.encode(tokens, forKey: .tokens)
            try container.encode(tokensPerSession, forKey: .tokensPerSession)
        }

        init(variant: String, version: String, counters: [String: Int]) {
            func count(_ name: String) -> Int { counters[name] ?? 0 }
            func ratio(_ part: Int, _ whole: Int) -> Double? { whole > 0 ? Double(part) / Double(whole) : nil }
            func prefixed(_ prefix: String) -> [String: Int] {
                Dictionary(
                    uniqueKeysWithValues: counters.filter { $0.key.hasPrefix(prefix) }.map { (String($0.key.dropFirst(prefix.count)), $0.value) }
                )
            }
            self.variant = variant
            self.version = version
            requests = count("requests")
            sessions = count("sessions")
            refreshes = count("refreshes")
            sessionsWithSelection = count("sessions_selected")
            selectionRate = ratio(sessionsWithSelection, sessions)
            feedback = prefixed("feedback.")
            sources = prefixed("source.")
            fallbackRate = ratio(count("rounds_with_fallback_prompts"), requests)
            fallbacksByReason = prefixed("fallback.")
            reaskRate = ratio(count("reasks"), count("judged_requests"))
            passRate = ratio(count("candidates.kept"), count("candidates.kept") + count("candidates.rejected"))
            rejections = prefixed("rejected.")
            tokens = prefixed("tokens.")
            tokensPerSession = ratio(count("tokens.prompt") + count("tokens.completion"), sessions)
        }
    }

    /// The experiment's name.
    public var template: String
    /// The window's start, ISO 8601 (rounded down to the hour: counts are hourly).
    public var from: String
    /// The window's end, ISO 8601.
    public var to: String
    /// One entry per variant and version seen in the window, most requests first.
    public var versions: [Version]

    /// Sums `counters` per variant and version.
    public init(template: String, from: Date, to: Date, counters: [StatsCounter]) {
        self.template = template
        self.from = Date(timeIntervalSince1970: Double(StatsCounter.bucket(for: from))).formatted(.iso8601)
        self.to = to.formatted(.iso8601)
        var sums: [TemplateIdentity: [String: Int]] = [:]
        for counter in counters {
            sums[counter.template, default: [:]][counter.name, default: 0] += counter.value
        }
        versions = sums.map { Version(variant: $0.key.variant, version: $0.key.version, counters: $0.value) }
            .sorted { ($0.requests, $0.variant, $0.version) > ($1.requests, $1.variant, $1.version) }
    }
}
