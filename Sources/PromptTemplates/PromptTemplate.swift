import Foundation
import Mustache
import PromptDomain

/// An operator-editable prompt: a system part and a user part, both Mustache, rendered as plain text.
///
/// Lives in `prompts/<name>/`: `system.mustache`, `user.mustache`, the optional `settings.json` and `fallbacks.txt`.
/// Its version hashes all four, so any edit gives new cache keys and the old cached answers stop being served.
public struct PromptTemplate: Sendable {
    public let identity: TemplateIdentity
    public let settings: TemplateSettings
    /// The template's own fallbacks, used before the product's defaults.
    public let fallbacks: TemplateFallbacks
    /// The texts of the files it was made from, by file name: what the operators' console diffs.
    public let sourceFiles: [String: String]
    /// The chatter phrases of its `prompts/` (`prompts/chatter/`), which the gate applies with this template's `gate` rules.
    public private(set) var chatter = ChatterPhrases()
    /// The words the gate takes as real beyond each language's dictionary (`prompts/words`).
    public private(set) var knownWords = KnownWords()
    /// The words a question may open with, from its `prompts/` (`prompts/openers/`), for the grammar.
    public private(set) var openers = LanguageLists()
    /// The example questions of its `prompts/` (`prompts/examples/`), shown to the model as `{{examples}}` when `examples` is on.
    public private(set) var examples = LanguageLists()
    /// The angles the model is asked for and each card is known by (`prompts/angles/`, those `angles` names).
    public private(set) var angles = Angles.Catalog.none
    /// The app's dictionaries for the gate's real-word check, set with the lists; none until then, so a template
    /// never given its lists is only rendered, not judged.
    public private(set) var dictionaries = SpellingDictionaries()
    /// The gate's version and the used lists' fingerprints, worked out once when set: part of every cache key, so a
    /// list edit re-judges and rewrites what the cache holds, and a cache hit hashes nothing.
    package private(set) var listsIdentity = "\(PromptGate.version)"
    private let system: MustacheTemplate
    private let user: MustacheTemplate

    /// - Throws: ``TemplateError`` naming the part and line of a syntax error or the invalid setting.
    public init(
        name: String,
        systemText: String,
        userText: String,
        settingsText: String? = nil,
        fallbacksText: String? = nil
    ) throws(TemplateError) {
        self.system = try Self.parse(systemText, part: "\(name)/system.mustache")
        self.user = try Self.parse(userText, part: "\(name)/user.mustache")
        self.settings =
            try settingsText.map { text throws(TemplateError) in try TemplateSettings.parse(text, file: "\(name)/settings.json") }
            ?? TemplateSettings()
        self.fallbacks =
            try fallbacksText.map { text throws(TemplateError) in try TemplateFallbacks.parse(text, file: "\(name)/fallbacks.txt") }
            ?? .none
        self.sourceFiles = ["system.mustache": systemText, "user.mustache": userText, "settings.json": settingsText, "fallbacks.txt": fallbacksText]
            .compactMapValues { $0 }
        let version = Self.version(system: systemText, user: userText, settings: settingsText, fallbacks: fallbacksText)
        self.identity = TemplateIdentity(name: name, version: version)
    }

    package static func version(system: String, user: String, settings: String?, fallbacks: String?) -> String {
        let hash = ContentHash.sha256Hex(
            "system\u{0}\(system)\u{0}user\u{0}\(user)\u{0}settings\u{0}\(settings ?? "")\u{0}fallbacks\u{0}\(fallbacks ?? "")"
        )
        return String(hash.prefix(12))
    }

    /// The version `name`'s files would have even unparsed, for a rejected edit; nil if a required part is unreadable.
    public static func fileVersion(name: String, from directory: String) -> String? {
        guard isValidName(name) else { return nil }
        let folder = URL(fileURLWithPath: directory).appendingPathComponent(name)
        func read(_ part: String) -> String? { try? String(contentsOf: folder.appendingPathComponent(part), encoding: .utf8) }
        guard let system = read("system.mustache"), let user = read("user.mustache") else { return nil }
        return version(system: system, user: user, settings: read("settings.json"), fallbacks: read("fallbacks.txt"))
    }

    public static func load(name: String, from directory: String, dictionaries: SpellingDictionaries) throws(TemplateError) -> PromptTemplate {
        guard Self.isValidName(name) else {
            throw TemplateError(file: name, message: "is not a template name: use letters, digits, '-' and '_'")
        }
        let folder = URL(fileURLWithPath: directory).appendingPathComponent(name)
        var template = try PromptTemplate(
            name: name,
            systemText: try readPart("system.mustache", of: name, in: folder),
            userText: try readPart("user.mustache", of: name, in: folder),
            settingsText: try readOptionalPart("settings.json", of: name, in: folder),
            fallbacksText: try readOptionalPart("fallbacks.txt", of: name, in: folder)
        )
        try template.useLists(of: directory, dictionaries: dictionaries)
        return template
    }

    /// A version kept in the console's archive, made again from its files, with today's lists of `prompts/`.
    public static func restore(
        _ archived: TemplateVersionFiles,
        listsFrom directory: String,
        dictionaries: SpellingDictionaries
    ) throws(TemplateError) -> PromptTemplate {
        let files = archived.files
        var template = try PromptTemplate(
            name: archived.template.variant,
            systemText: files["system.mustache"] ?? "",
            userText: files["user.mustache"] ?? "",
            settingsText: files["settings.json"],
            fallbacksText: files["fallbacks.txt"]
        )
        try template.useLists(of: directory, dictionaries: dictionaries)
        return template
    }

    /// Template names are folder names; anything else (`..`, slashes) could read outside `prompts/`.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64
            && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
    }

    /// The word rule and checks without the gate: for the operators' own fallback lines, which the gate does not judge.
    public func validator(for language: LanguageTag) -> PromptValidator {
        PromptValidator(wordRule: .for(language, overrides: settings.wordRanges), checks: settings.checks)
    }

    /// The validator of a model's candidates: the word rule and checks, and the gate with this template's rules.
    public func validator(for language: LanguageTag, photo: PhotoMetadata, now: Date? = nil) -> PromptValidator {
        var validator = validator(for: language)
        validator.gate = PromptGate(
            language: language,
            photo: photo,
            now: now,
            rules: settings.gate,
            chatter: chatter,
            knownWords: knownWords,
            dictionaries: dictionaries
        )
        validator.exampleKeys = Set(examples(for: language).map(PromptNormalizer.repeatKey))
        validator.photoMentions = PhotoMentions(photo, language: language)
        validator.openers = openers.lines(for: language)
        return validator
    }

    /// What a reply is asked to be: `candidate_count` questions within the word rule, `naming_lines` naming the photo.
    public func constraint(for language: LanguageTag, photo: PhotoMetadata = PhotoMetadata()) -> OutputConstraint {
        OutputConstraint(
            items: settings.candidateCount,
            language: language,
            wordRule: .for(language, overrides: settings.wordRanges),
            openers: openers.lines(for: language),
            joinsWords: examples.lines(for: language).contains(where: Self.joinsWords),
            details: photo.details,
            namingLines: settings.namingLines
        )
    }

    /// Whether `text` has a letter, an apostrophe or hyphen, and a letter: "Qu'as-tu", not "3-year".
    private static func joinsWords(_ text: String) -> Bool {
        let characters = Array(text)
        return characters.indices.dropFirst().dropLast().contains { index in
            "'’-".contains(characters[index]) && characters[index - 1].isLetter && characters[index + 1].isLetter
        }
    }

    /// The example questions a request for `language` shows the model: none unless `settings.json` turns them on.
    public func examples(for language: LanguageTag) -> [String] {
        settings.examples ? examples.lines(for: language) : []
    }

    /// Reads the lists every template of `directory` shares, so a reload, `render`, `eval` and a restore see the same.
    mutating func useLists(of directory: String, dictionaries: SpellingDictionaries) throws(TemplateError) {
        useLists(
            chatter: try ChatterPhrases.load(from: directory),
            knownWords: try KnownWords.load(from: directory),
            examples: try LanguageLists.load("examples", from: directory),
            openers: try LanguageLists.load("openers", from: directory),
            angles: try Angles.Catalog.load(from: directory, only: settings.angles),
            dictionaries: dictionaries
        )
    }

    /// Sets the lists of `prompts/` the template uses and the dictionaries its gate judges words with. `gate` is the
    /// gate's version the lists are judged by; tests name an older one.
    package mutating func useLists(
        chatter: ChatterPhrases,
        knownWords: KnownWords = KnownWords(),
        examples: LanguageLists = LanguageLists(),
        openers: LanguageLists = LanguageLists(),
        angles: Angles.Catalog = .none,
        dictionaries: SpellingDictionaries,
        gate: Int = PromptGate.version
    ) {
        self.dictionaries = dictionaries
        self.chatter = chatter
        self.knownWords = knownWords
        self.examples = examples
        self.openers = openers
        self.angles = angles
        listsIdentity = [
            "\(gate)", chatter.fingerprint, knownWords.fingerprint, settings.examples ? examples.fingerprint : "-", openers.fingerprint,
            angles.fingerprint,
        ].joined(separator: "-")
    }

    public func render(_ context: TemplateContext) -> RenderedPrompt {
        var values = context.mustacheValues
        // The word range is the language's, with this template's overrides: "{{min_words}} to {{max_words}} words".
        let range = validator(for: context.locale).wordRule.range
        values["min_words"] = range.lowerBound
        values["max_words"] = range.upperBound
        let examples = examples(for: context.locale)
        if !examples.isEmpty {
            values["examples"] = examples
            values["has_examples"] = true
        }
        let angles = angles.angles(for: context.locale).all
        if !angles.isEmpty {
            values["angles"] = angles.map(\.wording)
            values["has_angles"] = true
        }
        return RenderedPrompt(
            system: system.render(values).trimmingCharacters(in: .whitespacesAndNewlines),
            user: user.render(values).trimmingCharacters(in: .whitespacesAndNewlines)
        )
    }

    private static func readOptionalPart(_ part: String, of name: String, in folder: URL) throws(TemplateError) -> String? {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(part).path) ? try readPart(part, of: name, in: folder) : nil
    }

    /// Errors name the file relative to `prompts/`, like every other template error.
    private static func readPart(_ part: String, of name: String, in folder: URL) throws(TemplateError) -> String {
        do {
            return try String(contentsOf: folder.appendingPathComponent(part), encoding: .utf8)
        } catch {
            let missing = !FileManager.default.fileExists(atPath: folder.appendingPathComponent(part).path)
            throw TemplateError(file: "\(name)/\(part)", message: missing ? "is missing" : "cannot be read (\(error.localizedDescription))")
        }
    }

    private static func parse(_ text: String, part: String) throws(TemplateError) -> MustacheTemplate {
        do {
            // The pragma makes `{{value}}` insert text verbatim; HTML escaping would garble quotes and ampersands.
            return try MustacheTemplate(string: "{{% CONTENT_TYPE: TEXT}}" + text)
        } catch let error as MustacheTemplate.ParserError {
            throw TemplateError(file: part, line: error.context.lineNumber, message: "Mustache syntax error: \(error.error)")
        } catch {
            throw TemplateError(file: part, message: "Mustache syntax error: \(error)")
        }
    }
}
