import Foundation
import Logging
import PromptDomain
import Synchronization

/// The live ``TemplateSet`` and hot reload: a new version is loaded and checked off to the side, then swapped in
/// whole. A broken edit is rejected and remembered with its reason; the previous version keeps serving.
public final class TemplateLibrary: Sendable {
    /// The configured template (`PROMPTS_TEMPLATE`).
    public let name: String
    /// The folder templates live in (`PROMPTS_DIRECTORY`).
    public let directory: String
    /// The dictionaries every template's gate judges words with, opened once for the app.
    public let dictionaries: SpellingDictionaries
    private let clock: any WallClock
    private let logger: Logger
    private let state: Mutex<State>
    /// Held for a whole reload, so a file change, SIGHUP and the admin route never load at the same time.
    private let reloading = Mutex<Void>(())

    private struct State {
        var live: TemplateSet
        var loadedAt: Date
        var rejected: TemplateRejection?
        /// Every version this library has made live, oldest first, for the console's archive.
        var loaded: [TemplateVersionFiles] = []

        mutating func remember(_ set: TemplateSet, at now: Date) {
            for template in set.templates.values.sorted(by: { $0.identity.variant < $1.identity.variant }) {
                let identity = template.identity.assigned(to: set.name)
                guard !loaded.contains(where: { $0.template == identity }) else { continue }
                loaded.append(TemplateVersionFiles(template: identity, files: template.sourceFiles, firstSeen: now))
            }
        }
    }

    /// - Throws: ``TemplateError``: at start-up there is no previous version to fall back on.
    public init(
        name: String,
        directory: String,
        dictionaries: SpellingDictionaries,
        clock: any WallClock,
        logger: Logger
    ) throws(TemplateError) {
        self.name = name
        self.dictionaries = dictionaries
        self.directory = directory
        self.clock = clock
        self.logger = logger
        let now = clock.now
        var state = State(live: try TemplateSet.load(name: name, from: directory, dictionaries: dictionaries, now: now), loadedAt: now)
        state.remember(state.live, at: now)
        self.state = Mutex(state)
    }

    public var live: TemplateSet { state.withLock { $0.live } }

    /// The live versions and the last rejected edit, for `GET /admin/templates`.
    public var status: TemplateStatus {
        state.withLock { state in
            TemplateStatus(live: state.live, loadedAt: state.loadedAt, rejected: state.rejected)
        }
    }

    /// Every version made live since start-up, with its files, oldest first.
    public var versionsLoaded: [TemplateVersionFiles] { state.withLock { $0.loaded } }

    /// Reads `prompts/` again and swaps it in if every check passes; `trigger` (`SIGHUP`, `admin`…) is for the log.
    @discardableResult
    public func reload(trigger: String) -> TemplateReloadOutcome {
        reloading.withLock { _ in
            let now = clock.now
            let previous = live
            do throws(TemplateError) {
                let set = try TemplateSet.load(name: name, from: directory, dictionaries: dictionaries, now: now)
                let changed = set.versions != previous.versions || set.copy != previous.copy
                state.withLock { state in
                    state.rejected = nil
                    if changed {
                        state.live = set
                        state.loadedAt = now
                        state.remember(set, at: now)
                    }
                }
                guard changed else { return .unchanged(previous) }
                logger.info(
                    "templates reloaded",
                    metadata: [
                        "trigger": "\(trigger)", "versions": "\(Self.describe(set.versions))", "previous": "\(Self.describe(previous.versions))",
                    ]
                )
                return .loaded(set)
            } catch {
                let rejection = TemplateRejection(error: error, at: now, trigger: trigger)
                state.withLock { $0.rejected = rejection }
                logger.error(
                    "template edit rejected; the previous version keeps serving",
                    metadata: [
                        "trigger": "\(trigger)", "file": "\(directory)/\(error.location)", "reason": "\(error.message)",
                        "serving": "\(Self.describe(previous.versions))",
                    ]
                )
                return .rejected(rejection)
            }
        }
    }

    /// "photo-journal@3f2a9c1b04de, photo-journal-b@…"
    package static func describe(_ versions: [String: String]) -> String {
        versions.sorted { $0.key < $1.key }.map { "\($0.key)@\($0.value)" }.joined(separator: ", ")
    }
}

public struct TemplateStatus: Sendable {
    public var live: TemplateSet
    public var loadedAt: Date
    /// The last edit that was refused, unless a later reload succeeded.
    public var rejected: TemplateRejection?
}

public enum TemplateReloadOutcome: Sendable {
    /// A new version is live.
    case loaded(TemplateSet)
    /// The files load to the versions already live.
    case unchanged(TemplateSet)
    /// The edit is broken; the previous version keeps serving.
    case rejected(TemplateRejection)
}

public struct TemplateRejection: Sendable {
    public var error: TemplateError
    public var at: Date
    /// What asked for the reload.
    public var trigger: String
}
