import Foundation
import Mustache

/// An operator-editable prompt: a system part and a user part, both Mustache, rendered as plain text.
///
/// Lives in `prompts/<name>/system.mustache`, `prompts/<name>/user.mustache` and the optional
/// `prompts/<name>/settings.json`. Its version is a hash of all three, so any edit gives new cache keys and the old
/// cached answers stop being served.
public struct PromptTemplate: Sendable {
    /// The template's name and version.
    public let identity: TemplateIdentity
    /// Candidate count and model parameters.
    public let settings: TemplateSettings
    private let system: MustacheTemplate
    private let user: MustacheTemplate

    /// Parses a template from its two parts.
    ///
    /// - Throws: ``TemplateError`` naming the part and line of a syntax error.
    public init(name: String, systemText: String, userText: String, settingsText: String? = nil) throws(TemplateError) {
        self.system = try Self.parse(systemText, part: "\(name)/system.mustache")
        self.user = try Self.parse(userText, part: "\(name)/user.mustache")
        self.settings =
            try settingsText.map { text throws(TemplateError) in try TemplateSettings.parse(text, file: "\(name)/settings.json") }
            ?? TemplateSettings()
        let version = ContentHash.sha256Hex("system\u{0}\(systemText)\u{0}user\u{0}\(userText)\u{0}settings\u{0}\(settingsText ?? "")")
        self.identity = TemplateIdentity(name: name, version: String(version.prefix(12)))
    }

    /// Loads the template called `name` from `directory`.
    public static func load(name: String, from directory: String) throws(TemplateError) -> PromptTemplate {
        let folder = URL(fileURLWithPath: directory).appendingPathComponent(name)
        let systemText = try readPart(folder.appendingPathComponent("system.mustache"))
        let userText = try readPart(folder.appendingPathComponent("user.mustache"))
        let settingsURL = folder.appendingPathComponent("settings.json")
        let settingsText = FileManager.default.fileExists(atPath: settingsURL.path) ? try readPart(settingsURL) : nil
        return try PromptTemplate(name: name, systemText: systemText, userText: userText, settingsText: settingsText)
    }

    /// Renders both parts for `context`.
    public func render(_ context: TemplateContext) -> RenderedPrompt {
        let values = context.mustacheValues
        return RenderedPrompt(
            system: system.render(values).trimmingCharacters(in: .whitespacesAndNewlines),
            user: user.render(values).trimmingCharacters(in: .whitespacesAndNewlines)
        )
    }

    private static func readPart(_ url: URL) throws(TemplateError) -> String {
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw TemplateError(file: url.path, message: "cannot be read (\(error.localizedDescription))")
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

/// The two messages sent to the model.
public struct RenderedPrompt: Sendable, Equatable {
    /// The system message: instructions.
    public var system: String
    /// The user message: the photo's metadata, as delimited data.
    public var user: String
}

/// A template or fallback file that cannot be used, naming the file and, where known, the line.
public struct TemplateError: Error, Sendable, CustomStringConvertible {
    /// The file at fault.
    public var file: String
    /// The 1-based line, when the parser reported one.
    public var line: Int?
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(file: String, line: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// "prompts/photo-journal/user.mustache:3: Mustache syntax error: …"
    public var description: String {
        "\(file)\(line.map { ":\($0)" } ?? ""): \(message)"
    }
}
