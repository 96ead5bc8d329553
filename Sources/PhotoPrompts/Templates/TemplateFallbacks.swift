import Mustache

/// A template's own fallback prompts, from the optional `prompts/<name>/fallbacks.txt`.
///
/// Unlike the product's default copy they may use the photo's metadata ("What drew you to {{location.name}} this
/// {{time_of_day}}?"), so each is rendered per request and used only if the rendered text passes the word rule and
/// the template's checks; for a photo without a location such a line simply drops out. The product's defaults
/// follow them and are exempt.
public struct TemplateFallbacks: Sendable {
    /// One line of the file.
    struct Line: Sendable {
        var number: Int
        var source: String
        var template: MustacheTemplate
    }

    let lines: [Line]

    /// No template-specific fallbacks.
    public static let none = TemplateFallbacks(lines: [])

    init(lines: [Line]) {
        self.lines = lines
    }

    /// Parses the file's text: one prompt per line, `#` starts a comment, blank lines are skipped.
    ///
    /// - Throws: ``TemplateError`` naming `file` and the line of a Mustache syntax error.
    public static func parse(_ text: String, file: String) throws(TemplateError) -> TemplateFallbacks {
        var lines: [Line] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let source = raw.trimmingCharacters(in: .whitespaces)
            guard !source.isEmpty, !source.hasPrefix("#") else { continue }
            do {
                lines.append(Line(number: index + 1, source: source, template: try MustacheTemplate(string: "{{% CONTENT_TYPE: TEXT}}" + source)))
            } catch {
                throw TemplateError(file: file, line: index + 1, message: "Mustache syntax error: \(error)")
            }
        }
        return TemplateFallbacks(lines: lines)
    }

    /// Each line rendered for `context`, with what the validator made of it.
    func rendered(for context: TemplateContext, validator: PromptValidator) -> [(line: Line, text: String, validation: PromptValidation)] {
        let values = context.mustacheValues
        return lines.map { line in
            let text = line.template.render(values)
            return (line, text, validator.validate([text]))
        }
    }

    /// The lines that, rendered for `context`, pass the word rule and the checks.
    func usable(for context: TemplateContext, validator: PromptValidator) -> [String] {
        rendered(for: context, validator: validator).compactMap { $0.validation.kept.first?.text }
    }
}
