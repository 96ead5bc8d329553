import PromptDomain
import PromptStores
import Synchronization

/// What a round was shown for: the version that rendered it, the language of its copy, and the photo.
package struct RoundContext: Sendable {
    package var template: TemplateIdentity
    package var language: String
    package var photo: PhotoMetadata
}

/// Counts what happens to each template version in memory and hands the counts to the store in batches.
///
/// Requests only touch a mutex-guarded dictionary: stats never add a database write to the user's wait. The app's
/// `StatsFlushService` writes the counts every `STATS_FLUSH_INTERVAL` and at shutdown, and `GET /admin/stats` flushes
/// before it reads, so operators see every finished request. A crash loses at most one interval of counts.
public final class StatsRecorder: Sendable {
    private struct Key: Hashable {
        var bucket: Int
        var template: TemplateIdentity
        var language: String
        var name: String
    }

    private let pending = Mutex<[Key: Int]>([:])
    private let store: any StatsStore
    private let clock: any WallClock
    private let archive: (any ConsoleArchiveStore)?
    private let versions: @Sendable () -> [TemplateVersionFiles]
    private let archived = Mutex<Set<TemplateIdentity>>([])

    /// Creates a recorder that flushes to `store`, and keeps in `archive` the files of every template version
    /// `versions` names, so the console can diff versions long after the folder has moved on.
    public init(
        store: any StatsStore,
        clock: any WallClock,
        archive: (any ConsoleArchiveStore)? = nil,
        versions: @escaping @Sendable () -> [TemplateVersionFiles] = { [] }
    ) {
        self.store = store
        self.clock = clock
        self.archive = archive
        self.versions = versions
    }

    /// Adds `counts` (counter name to amount) for `template` in `language` (a tag's text) at the current time.
    public func add(_ counts: [String: Int], for template: TemplateIdentity, language: String) {
        let bucket = StatsCounter.bucket(for: clock.now)
        pending.withLock { pending in
            for (name, value) in counts where value != 0 {
                pending[Key(bucket: bucket, template: template, language: language, name: name), default: 0] += value
            }
        }
    }

    /// Counts one answer shown: a session's first round or a refresh, in the language of its copy. `firstAnswer` is
    /// how long the user waited for a session's first round; refreshes pass `nil`.
    package func recordRound(_ round: SessionRound, generation: Generation, shown: RoundContext, firstAnswer: Duration?) {
        var counts = ["requests": 1, firstAnswer == nil ? "refreshes" : "sessions": 1, "source.\(round.source.rawValue)": 1]
        if let reason = round.fallbackReason { counts["fallback.\(reason.rawValue)"] = 1 }
        if round.prompts.contains(where: { $0.source == .fallback }) { counts["rounds_with_fallback_prompts"] = 1 }
        let mentions = PhotoMentions(shown.photo, language: LanguageTag(locale: shown.language))
        counts["prompts_shown"] = round.prompts.count
        counts["cards.fallback"] = round.prompts.filter { $0.source == .fallback }.count
        counts["prompts_naming_detail"] = round.prompts.filter { mentions.mentioned(inKey: $0.repeatKey) }.count
        for angle in round.prompts.compactMap(\.angle) { counts["angle.\(angle)", default: 0] += 1 }
        counts["angles_distinct"] = Set(round.prompts.compactMap(\.angle)).count
        if let firstAnswer { counts[LatencyHistogram.counterName(milliseconds: Int(firstAnswer.milliseconds))] = 1 }
        // Every call this request made, failovers and failures included.
        if generation.modelCalls > 0 { counts["model_calls"] = generation.modelCalls }
        // Candidates count only where a backend answered for this request: not for cache, surplus or shared answers.
        if generation.judged {
            counts["judged_requests"] = 1
            if generation.reasked { counts["reasks"] = 1 }
            counts["candidates.kept"] = generation.candidates.count
            counts["candidates.rejected"] = generation.rejected.count
            counts["near_duplicates"] = generation.nearDuplicates
            for rejection in generation.rejected { counts["rejected.\(rejection.reason.code)", default: 0] += 1 }
            if let usage = generation.usage {
                counts["tokens.prompt"] = usage.prompt
                counts["tokens.completion"] = usage.completion
            }
        }
        add(counts, for: shown.template, language: shown.language)
    }

    /// Counts feedback that was new, in the language of the copy its session was shown.
    package func recordFeedback(_ feedback: RecordedFeedback, language: String) {
        guard feedback.isNew else { return }
        var counts = ["feedback.\(feedback.action.rawValue)": 1]
        if feedback.isFirstSelection { counts["sessions_selected"] = 1 }
        add(counts, for: feedback.template, language: language)
    }

    /// Writes every pending count to the store. On failure the counts are put back for the next flush.
    public func flush() async throws {
        try await archiveNewVersions()
        let drained = pending.withLock { pending in
            defer { pending = [:] }
            return pending
        }
        guard !drained.isEmpty else { return }
        let counters = drained.map {
            StatsCounter(bucket: $0.key.bucket, template: $0.key.template, language: $0.key.language, name: $0.key.name, value: $0.value)
        }
        do {
            try await store.addStats(counters)
        } catch {
            pending.withLock { pending in
                for (key, value) in drained { pending[key, default: 0] += value }
            }
            throw error
        }
    }

    /// Keeps the files of versions loaded since the last flush; a failure leaves them for the next.
    private func archiveNewVersions() async throws {
        guard let archive else { return }
        let known = archived.withLock { $0 }
        let new = versions().filter { !known.contains($0.template) }
        guard !new.isEmpty else { return }
        try await archive.archiveTemplateVersions(new)
        archived.withLock { $0.formUnion(new.map(\.template)) }
    }
}
