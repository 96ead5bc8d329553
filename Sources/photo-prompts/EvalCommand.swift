import ArgumentParser
import Foundation
import Logging
import PhotoPrompts
import PromptDomain
import PromptStores
import PromptTemplates
import Synchronization

/// `photo-prompts eval`: runs a fixture set through the configured backend and reports how a template did.
struct EvalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Run every fixture photo through the configured backend; print a table, write JSON, and exit 1 when a threshold is missed."
    )

    @OptionGroup var options: ConfigurationOptions

    @Option(help: "The template folder in PROMPTS_DIRECTORY (default: PROMPTS_TEMPLATE).")
    var template: String?

    @Option(help: "A .jsonl file, one fixture per line: {\"name\": …, \"photo\": {…}, \"locale\": …}.")
    var fixtures = "prompts/fixtures/photos.jsonl"

    @Option(help: "A second template to run over the same fixtures, side by side.")
    var compare: String?

    @Option(help: "Fixtures run at once.")
    var concurrency = 4

    @Option(help: "Where to write the JSON report.")
    var output = "eval-report.json"

    @Flag(help: "Also keep each run's summary in the service's store (DATABASE_PATH or DATABASE_URL) for the operators' console.")
    var store = false

    @Option(help: "The commit the run is for, kept with a stored run (e.g. $(git rev-parse --short HEAD)).")
    var commit: String?

    @Option(help: "Fail when the share of raw candidates passing the word rule is below this (0–1).")
    var minPassRate: Double?

    @Option(help: "Fail when the share of requests needing a re-ask is above this (0–1).")
    var maxReaskRate: Double?

    @Option(help: "Fail when the share of requests needing a fallback is above this (0–1).")
    var maxFallbackRate: Double?

    @Option(help: "Fail when the share of prompts mentioning the photo's place, labels or people is below this (0–1).")
    var minMetadataRate: Double?

    @Option(help: "Fail when more than this many prompts were written for two photos or more.")
    var maxRepeated: Int?

    @Option(help: "Fail when the 95th percentile latency is above this many milliseconds.")
    var maxP95Ms: Double?

    func run() async throws {
        let configuration = try await options.load()
        let dictionaries = SpellingDictionaries.debian()
        let fixtureSet: [EvalFixture]
        let templates: [PromptTemplate]
        let copy: CopyCatalog
        do {
            fixtureSet = try EvalFixture.load(from: fixtures)
            templates = try ([template ?? configuration.templateName] + (compare.map { [$0] } ?? [])).map { name throws(TemplateError) in
                try PromptTemplate.load(name: name, from: configuration.promptsDirectory, dictionaries: dictionaries)
            }
            copy = try CopyCatalog.load(from: configuration.promptsDirectory)
        } catch let error as TemplateError {
            throw StartupFailure("\(configuration.promptsDirectory)/\(error)")
        } catch let error as EvalFixtureError {
            throw StartupFailure(error.description)
        }
        var logger = Logger(label: "photo-prompts")
        logger.logLevel = .error
        // A throwaway in-memory store: an evaluation must neither read nor fill the service's cache.
        let generator = makeGenerator(configuration, cache: try InMemoryDatabase().open(), dependencies: .live)
        let runner = EvalRunner(generator: generator, concurrency: concurrency)
        var reports: [EvalReport] = []
        for template in templates {
            let bar = ProgressBar(label: "\(template.identity.name)@\(template.identity.version)", total: fixtureSet.count)
            reports.append(await runner.run(template, copy: copy, over: fixtureSet, logger: logger) { bar.update($0) })
        }
        print(EvalTable.render(reports), terminator: "")
        try writeReport(reports)
        if store {
            let model = generator.chain.identities.map { "\($0.provider)/\($0.model)" }.joined(separator: " then ")
            let stored = try await EvalRunArchive.store(reports, commit: commit, model: model, configuration: configuration, logger: logger)
            print("stored \(stored.map(\.id).joined(separator: ", ")) for the console")
        }

        let thresholds = EvalThresholds(
            minimumPassRate: minPassRate,
            maximumReaskRate: maxReaskRate,
            maximumFallbackRate: maxFallbackRate,
            minimumMetadataMentionRate: minMetadataRate,
            maximumRepeatedAcrossPhotos: maxRepeated,
            maximumLatencyP95Milliseconds: maxP95Ms
        )
        // Thresholds gate the template under test; a --compare run is for reading, not for failing the build.
        let misses = thresholds.misses(in: reports[0])
        guard misses.isEmpty else {
            for miss in misses { print("FAILED: \(miss)") }
            throw ExitCode(1)
        }
    }

    private func writeReport(_ reports: [EvalReport]) throws {
        let encoder = SnakeCaseJSON.makeEncoder([.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        let document = EvalDocument(fixtures: fixtures, reports: reports)
        try encoder.encode(document).write(to: URL(fileURLWithPath: output))
        print("report written to \(output)")
    }
}

/// The JSON `photo-prompts eval` writes.
struct EvalDocument: Encodable {
    var fixtures: String
    var reports: [EvalReport]
}

/// A progress bar on standard error: redrawn in place on a terminal, a line per tenth otherwise (CI logs).
final class ProgressBar: Sendable {
    private let label: String
    private let total: Int
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let lastTenth = Mutex(-1)

    init(label: String, total: Int) {
        self.label = label
        self.total = max(total, 1)
    }

    func update(_ done: Int) {
        let width = 30
        let filled = done * width / total
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let line = "\(label) [\(bar)] \(done)/\(total)"
        if isTerminal {
            FileHandle.standardError.write(Data("\r\(line)\(done == total ? "\n" : "")".utf8))
        } else {
            let tenth = done * 10 / total
            let isNewTenth = lastTenth.withLock { last in
                defer { last = max(last, tenth) }
                return tenth > last
            }
            if isNewTenth { FileHandle.standardError.write(Data("\(line)\n".utf8)) }
        }
    }
}
