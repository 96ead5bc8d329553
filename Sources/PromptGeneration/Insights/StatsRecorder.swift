import Foundation
import PromptDomain
import PromptStores
import Synchronization

/// Counts what happens to each template version in memory and hands the counts to the store in batches.
///
/// Requests only touch a mutex-guarded dictionary: stats never add a database write to the user's wait. The
/// ``StatsFlushService`` writes the counts every `STATS_FLUSH_INTERVAL` and at shutdown, and `GET /admin/stats`
/// flushes before it reads, so an operator always sees every finished request. A crash loses at most one
/// interval of counts, never a session.
public final class StatsRecorder: Sendable {
    private struct Key: Hashable {
        var bucket: Int
        var template: TemplateIdentity
        var name: String
    }

    private let pending = Mutex<[Key: Int]>([:])
    private let store: any StatsStore
    private let clock: any WallClock

    /// Creates a recorder that flushes to `store`.
    public init(store: any StatsStore, clock: any WallClock) {
        self.store = store
        self.clock = clock
    }

    /// Adds `counts` (counter name to amount) for `template` at the current time.
    public func add(_ counts: [String: Int], for template: TemplateIdentity) {
        let bucket = StatsCounter.bucket(for: clock.now)
        pending.withLock { pending in
            for (name, value) in counts where value != 0 {
                pending[Key(bucket: bucket, template: template, name: name), default: 0] += value
            }
        }
    }

    /// Counts one answer shown: a session's first round or a refresh.
    package func recordRound(_ round: RoundDraft, generation: Generation, isRefresh: Bool, template: TemplateIdentity) {
        var counts = ["requests": 1, isRefresh ? "refreshes" : "sessions": 1, "source.\(round.source.rawValue)": 1]
        if let reason = round.fallbackReason { counts["fallback.\(reason.rawValue)"] = 1 }
        if round.prompts.contains(where: { $0.source == .fallback }) { counts["rounds_with_fallback_prompts"] = 1 }
        // Candidates count only where a backend answered for this request: not for cache, surplus or shared answers.
        if generation.judged {
            counts["judged_requests"] = 1
            if generation.reasked { counts["reasks"] = 1 }
            counts["candidates.kept"] = generation.candidates.count
            counts["candidates.rejected"] = generation.rejected.count
            for rejection in generation.rejected {
                counts["rejected.\(rejection.reason.code)", default: 0] += 1
            }
            if let usage = generation.usage {
                counts["tokens.prompt"] = usage.prompt
                counts["tokens.completion"] = usage.completion
            }
        }
        add(counts, for: template)
    }

    /// Counts feedback that was new.
    package func recordFeedback(_ feedback: RecordedFeedback) {
        guard feedback.isNew else { return }
        var counts = ["feedback.\(feedback.action.rawValue)": 1]
        if feedback.isFirstSelection { counts["sessions_selected"] = 1 }
        add(counts, for: feedback.template)
    }

    /// Writes every pending count to the store. On failure the counts are put back for the next flush.
    public func flush() async throws {
        let drained = pending.withLock { pending in
            defer { pending = [:] }
            return pending
        }
        guard !drained.isEmpty else { return }
        let counters = drained.map { StatsCounter(bucket: $0.key.bucket, template: $0.key.template, name: $0.key.name, value: $0.value) }
        do {
            try await store.addStats(counters)
        } catch {
            pending.withLock { pending in
                for (key, value) in drained { pending[key, default: 0] += value }
            }
            throw error
        }
    }
}
