import Foundation
import PromptDomain

/// A template's `settings.json`: model parameters, candidate count, checks, and A/B variants.
///
/// The file is optional; every field has a default. Its bytes are part of the template's version, like the Mustache
/// parts. Unknown keys are refused: a misspelt setting silently ignored is worse than a reload that names it.
public struct TemplateSettings: Sendable, Equatable {
    /// How many questions to ask the model for, so that three survive the word rule.
    public var candidateCount = 6
    /// Sampling parameters sent to every backend.
    public var parameters = ModelParameters()
    public var checks = PromptChecks()
    /// Word ranges that replace the calibrated ones, by primary language subtag (`ja`).
    public var wordRanges: [String: ClosedRange<Int>] = [:]
    /// Weighted A/B variants, this template included if it keeps a share; empty: every session uses this template.
    public var variants: [TemplateVariant] = []
    /// Which of the gate's checks apply (all, unless `gate` relaxes one).
    public var gate = GateRules()
    /// Whether the model is shown example questions in the user's language (`prompts/examples/`), as `{{examples}}`.
    public var examples = false
    /// The angles asked for (`prompts/angles/`), by name and in order; nil: all of the language's, in the file's order.
    public var angles: [String]?
    /// How many candidates a grammar makes name a photo's label or place; none where the provider takes no grammar.
    public var namingLines = 0

    /// The file as written; its `CaseIterable` keys, snake-cased, are the known keys the unknown-key check reads.
    private struct File: Decodable {
        var candidateCount: Int?
        var temperature: Double?
        var maxTokens: Int?
        var dryMultiplier: Double?
        var seed: Int?
        var checks: Checks?
        var wordRanges: [String: WordRange]?
        var variants: [String: Int]?
        var gate: Gate?
        var examples: Bool?
        var angles: [String]?
        var namingLines: Int?

        struct Gate: Decodable {
            var language: Bool?
            var acceptLanguages: [String]?
            var placeholders: Bool?
            var chatter: Bool?
            var oneQuestion: Bool?
            var questionWords: Bool?
            var realWords: Bool?
            var photoDetails: Bool?
            var fluency: Bool?
            var fluencyFloor: Double?

            enum CodingKeys: String, CodingKey, CaseIterable {
                case language, acceptLanguages, placeholders, chatter, oneQuestion, questionWords, realWords, photoDetails
                case fluency, fluencyFloor
            }
        }

        struct WordRange: Decodable {
            var min: Int
            var max: Int
        }

        struct Checks: Decodable {
            var mustEndWithQuestionMark: Bool?
            var rejectLinks: Bool?
            var blockedWords: [String]?

            enum CodingKeys: String, CodingKey, CaseIterable {
                case mustEndWithQuestionMark, rejectLinks, blockedWords
            }
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case candidateCount, temperature, maxTokens, dryMultiplier, seed, checks, wordRanges, variants, gate, examples, angles
            case namingLines
        }
    }

    public static func parse(_ text: String, file: String) throws(TemplateError) -> TemplateSettings {
        let decoded: File
        do {
            try rejectUnknownKeys(in: text, file: file)
            decoded = try SnakeCaseJSON.decoder.decode(File.self, from: Data(text.utf8))
        } catch let error as TemplateError {
            throw error
        } catch {
            throw TemplateError(file: file, message: "is not valid settings JSON (\(error))")
        }
        let defaults = TemplateSettings()
        let checks = PromptChecks(
            mustEndWithQuestionMark: decoded.checks?.mustEndWithQuestionMark ?? defaults.checks.mustEndWithQuestionMark,
            rejectsLinks: decoded.checks?.rejectLinks ?? defaults.checks.rejectsLinks,
            blockedWords: decoded.checks?.blockedWords ?? defaults.checks.blockedWords
        )
        let settings = TemplateSettings(
            candidateCount: decoded.candidateCount ?? defaults.candidateCount,
            parameters: ModelParameters(
                // Unset means the provider's default: some models (OpenAI's reasoning ones) refuse any other.
                temperature: decoded.temperature,
                maxTokens: decoded.maxTokens ?? defaults.parameters.maxTokens,
                dryMultiplier: decoded.dryMultiplier,
                seed: decoded.seed
            ),
            checks: checks,
            wordRanges: try wordRanges(decoded.wordRanges ?? [:], file: file),
            variants: (decoded.variants ?? [:]).map { TemplateVariant(name: $0.key, weight: $0.value) }.sorted { $0.name < $1.name },
            gate: try gateRules(decoded.gate, file: file),
            examples: decoded.examples ?? false,
            angles: decoded.angles,
            namingLines: decoded.namingLines ?? 0
        )
        guard (3...20).contains(settings.candidateCount) else {
            throw TemplateError(file: file, message: "candidate_count must be from 3 to 20")
        }
        guard (0...settings.candidateCount).contains(settings.namingLines) else {
            throw TemplateError(file: file, message: "naming_lines must be from 0 to candidate_count")
        }
        if let maxTokens = settings.parameters.maxTokens, !(16...8192).contains(maxTokens) {
            throw TemplateError(file: file, message: "max_tokens must be from 16 to 8192")
        }
        if let dry = settings.parameters.dryMultiplier, !(0...5).contains(dry) {
            throw TemplateError(file: file, message: "dry_multiplier must be from 0 to 5")
        }
        if let temperature = settings.parameters.temperature, !(0...2).contains(temperature) {
            throw TemplateError(file: file, message: "temperature must be from 0 to 2")
        }
        if let empty = checks.blockedWords.first(where: { PromptNormalizer.repeatKey($0).isEmpty }) {
            throw TemplateError(file: file, message: "blocked_words has an entry with no letters or digits: \"\(empty)\"")
        }
        if let bad = settings.variants.first(where: { !(0...100).contains($0.weight) }) {
            throw TemplateError(file: file, message: "variants.\(bad.name) must be a weight from 0 to 100")
        }
        if !settings.variants.isEmpty, settings.variants.allSatisfy({ $0.weight == 0 }) {
            throw TemplateError(file: file, message: "variants must give at least one template a weight above 0")
        }
        return settings
    }

    /// The gate's rules, each unset one on; every accepted language must be a primary language subtag.
    private static func gateRules(_ gate: File.Gate?, file: String) throws(TemplateError) -> GateRules {
        let defaults = GateRules()
        for language in gate?.acceptLanguages ?? [] {
            guard let tag = LanguageTag(language), tag.description == language.lowercased(), !tag.language.isEmpty else {
                throw TemplateError(file: file, message: "gate.accept_languages: \"\(language)\" must be a language subtag such as \"en\"")
            }
        }
        if let floor = gate?.fluencyFloor, !(floor < 0) {
            throw TemplateError(file: file, message: "gate.fluency_floor must be a log-probability below 0, such as -5")
        }
        return GateRules(
            language: gate?.language ?? defaults.language,
            acceptedLanguages: (gate?.acceptLanguages ?? []).map { $0.lowercased() },
            placeholders: gate?.placeholders ?? defaults.placeholders,
            chatter: gate?.chatter ?? defaults.chatter,
            oneQuestion: gate?.oneQuestion ?? defaults.oneQuestion,
            questionWords: gate?.questionWords ?? defaults.questionWords,
            realWords: gate?.realWords ?? defaults.realWords,
            photoDetails: gate?.photoDetails ?? defaults.photoDetails,
            fluencyFloor: gate?.fluency == false ? nil : gate?.fluencyFloor ?? defaults.fluencyFloor
        )
    }

    /// Each override's language must be a primary language subtag and its range a sensible one.
    private static func wordRanges(_ ranges: [String: File.WordRange], file: String) throws(TemplateError) -> [String: ClosedRange<Int>] {
        var checked: [String: ClosedRange<Int>] = [:]
        for (language, range) in ranges.sorted(by: { $0.key < $1.key }) {
            guard let tag = LanguageTag(language), tag.description == language.lowercased(), !tag.language.isEmpty else {
                throw TemplateError(file: file, message: "word_ranges.\(language): the key must be a language subtag such as \"ja\"")
            }
            guard 1 <= range.min, range.min <= range.max, range.max <= 100 else {
                throw TemplateError(file: file, message: "word_ranges.\(language) must have 1 <= min <= max <= 100")
            }
            checked[tag.language] = range.min...range.max
        }
        return checked
    }

    private static func rejectUnknownKeys(in text: String, file: String) throws {
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw TemplateError(file: file, message: "must be a JSON object")
        }
        try rejectUnknown(object, known: File.CodingKeys.allCases, as: "setting", file: file)
        try rejectUnknown(object["gate"] as? [String: Any], known: File.Gate.CodingKeys.allCases, as: "gate rule", file: file)
        try rejectUnknown(object["checks"] as? [String: Any], known: File.Checks.CodingKeys.allCases, as: "check", file: file)
    }

    /// Refuses the first key of `object`, in sorted order, that is none of `known` snake-cased; `kind` names it in the error.
    private static func rejectUnknown(
        _ object: [String: Any]?,
        known: [some CodingKey],
        as kind: String,
        file: String
    ) throws(TemplateError) {
        let known = Set(known.map { SnakeCaseJSON.snakeCase($0.stringValue) })
        if let unknown = object?.keys.sorted().first(where: { !known.contains($0) }) {
            throw TemplateError(file: file, message: "unknown \(kind) \"\(unknown)\"; known: \(known.sorted().joined(separator: ", "))")
        }
    }
}

/// One arm of an A/B test: a template folder and its share of new sessions.
public struct TemplateVariant: Sendable, Equatable {
    public var name: String
    /// Its relative weight, 0–100.
    public var weight: Int
}
