import Foundation
import PromptDomain

/// The product's own words in one language: the fallback prompts and the three messages the app shows.
///
/// Read from `prompts/copy/<tag>.json`. English (`en.json`) is the source, verbatim from the product spec; the other
/// files are its translations, and English serves any locale none of them matches (``CopyCatalog``).
public struct ProductCopy: Sendable, Equatable {
    /// The language the copy is written in: the file's name.
    public let locale: LanguageTag
    /// The fallback prompts, in order of use. Exempt from the word rule.
    public let fallbacks: FallbackPrompts
    /// "Taking longer than expected. Try manual entry?"
    public let timeoutMessage: String
    /// "AI couldn't generate prompts. Write your own entry."
    public let errorMessage: String
    /// "You've reached the refresh limit. Write freely!"
    public let refreshLimitMessage: String
    /// Mustache fallbacks with a slot for the photo's place (`photo_fallbacks`), as a name reads the same in any
    /// language: used first when the photo has a place and the rendered line passes the word rule and the gate.
    public let photoFallbacks: TemplateFallbacks
    /// `photo_fallbacks` as written, for equality.
    private let photoFallbackLines: [String]

    public static func == (left: ProductCopy, right: ProductCopy) -> Bool {
        left.locale == right.locale && left.fallbacks == right.fallbacks && left.timeoutMessage == right.timeoutMessage
            && left.errorMessage == right.errorMessage && left.refreshLimitMessage == right.refreshLimitMessage
            && left.photoFallbackLines == right.photoFallbackLines
    }

    public func message(for reason: FallbackReason) -> String {
        switch reason {
        case .timeout: timeoutMessage
        case .backendError, .invalidOutput, .allSeen, .unavailable, .unsupportedLanguage: errorMessage
        }
    }

    /// The file as written; its `CaseIterable` keys, snake-cased, are the known keys the unknown-key check reads.
    private struct File: Decodable {
        var fallbacks: [String]
        var photoFallbacks: [String]?
        var messages: Messages

        struct Messages: Decodable {
            var timeout: String
            var error: String
            var refreshLimit: String

            enum CodingKeys: String, CodingKey, CaseIterable { case timeout, error, refreshLimit }
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case fallbacks, messages, photoFallbacks }
    }

    /// - Throws: ``TemplateError`` when the JSON is broken, a key is missing or unknown, a text is empty or spans
    ///   lines, or there are fewer than ``ProductSpec/promptsPerAnswer`` fallbacks.
    package static func parse(_ data: Data, locale: LanguageTag, file: String) throws(TemplateError) -> ProductCopy {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            // Foundation puts the place ("around line 3, column 5") in the debug description.
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            throw TemplateError(file: file, message: "is not valid JSON: \(detail)")
        }
        guard let top = object as? [String: Any] else { throw TemplateError(file: file, message: "must hold one JSON object") }
        try rejectUnknownKeys(top, known: File.CodingKeys.allCases, at: "", file: file)
        if let messages = top["messages"] as? [String: Any] {
            try rejectUnknownKeys(messages, known: File.Messages.CodingKeys.allCases, at: "messages.", file: file)
        }
        let decoded: File
        do {
            decoded = try SnakeCaseJSON.decoder.decode(File.self, from: data)
        } catch let error as DecodingError {
            throw TemplateError(file: file, message: DecodingProblem(error).description)
        } catch {
            throw TemplateError(file: file, message: "cannot be read (\(error))")
        }
        let photoLines = decoded.photoFallbacks ?? []
        let texts = [decoded.messages.timeout, decoded.messages.error, decoded.messages.refreshLimit] + decoded.fallbacks + photoLines
        if let bad = texts.first(where: { $0.trimmingSpaces.isEmpty || $0.rangeOfCharacter(from: .newlines) != nil }) {
            throw TemplateError(file: file, message: "every text must be one non-empty line; found \"\(bad)\"")
        }
        let fallbacks: FallbackPrompts
        do {
            fallbacks = try FallbackPrompts(texts: decoded.fallbacks.map(\.trimmingSpaces))
        } catch {
            throw TemplateError(file: file, message: "fallbacks \(error.message)")
        }
        return ProductCopy(
            locale: locale,
            fallbacks: fallbacks,
            timeoutMessage: decoded.messages.timeout,
            errorMessage: decoded.messages.error,
            refreshLimitMessage: decoded.messages.refreshLimit,
            photoFallbacks: try TemplateFallbacks.parse(photoLines.joined(separator: "\n"), file: "\(file) photo_fallbacks"),
            photoFallbackLines: photoLines
        )
    }

    /// A misspelt key ("refresh_limt") is refused rather than ignored, as in `settings.json`.
    private static func rejectUnknownKeys(_ object: [String: Any], known: [some CodingKey], at path: String, file: String) throws(TemplateError) {
        let known = known.map { SnakeCaseJSON.snakeCase($0.stringValue) }
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw TemplateError(file: file, message: "unknown key \"\(path)\(unknown)\"; known: \(known.map { path + $0 }.joined(separator: ", "))")
        }
    }
}
