import Foundation

/// A template's `settings.json`: how many candidates to ask for and the model parameters.
///
/// The file is optional; every field has a default. Its bytes are part of the template's version, so a change
/// here starts a fresh cache exactly like an edit to the Mustache parts.
public struct TemplateSettings: Sendable, Equatable {
    /// How many questions to ask the model for, so that three survive the word rule.
    public var candidateCount: Int
    /// Sampling parameters sent to every backend.
    public var parameters: ModelParameters

    /// Creates settings.
    public init(candidateCount: Int = 6, parameters: ModelParameters = ModelParameters()) {
        self.candidateCount = candidateCount
        self.parameters = parameters
    }

    private struct File: Decodable {
        var candidateCount: Int?
        var temperature: Double?
        var maxTokens: Int?

        enum CodingKeys: String, CodingKey {
            case candidateCount = "candidate_count"
            case temperature
            case maxTokens = "max_tokens"
        }
    }

    /// Parses `settings.json`; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws(TemplateError) -> TemplateSettings {
        let decoded: File
        do {
            decoded = try JSONDecoder().decode(File.self, from: Data(text.utf8))
        } catch {
            throw TemplateError(file: file, message: "is not valid settings JSON (\(error))")
        }
        let defaults = TemplateSettings()
        let settings = TemplateSettings(
            candidateCount: decoded.candidateCount ?? defaults.candidateCount,
            parameters: ModelParameters(
                temperature: decoded.temperature ?? defaults.parameters.temperature,
                maxTokens: decoded.maxTokens ?? defaults.parameters.maxTokens
            )
        )
        guard (3...20).contains(settings.candidateCount) else {
            throw TemplateError(file: file, message: "candidate_count must be from 3 to 20")
        }
        guard (16...8192).contains(settings.parameters.maxTokens) else {
            throw TemplateError(file: file, message: "max_tokens must be from 16 to 8192")
        }
        if let temperature = settings.parameters.temperature, !(0...2).contains(temperature) {
            throw TemplateError(file: file, message: "temperature must be from 0 to 2")
        }
        return settings
    }
}
