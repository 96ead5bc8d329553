import Mustache
import PromptDomain

/// A template's own fallback prompts, from the optional `prompts/<name>/fallbacks.txt`.
///
/// Unlike the product's defaults (which follow them, exempt) they may use the photo's metadata ("What drew you to
/// {{location.name}} this {{time_of_day}}?"), so each is rendered per request and used only if it passes the word rule
/// and the checks, and every variable it uses outside a section has a value: for a photo without a location, "What
/// drew you to {{location.name}}…" drops out rather than reading "What drew you to  on…".
public struct TemplateFallbacks: Sendable {
    package struct Line: Sendable {
        package var number: Int
        package var source: String
        package var template: MustacheTemplate
        /// Dotted names used outside any section, e.g. `["location", "name"]`: each must have a value.
        package var requiredPaths: [[String]]

        package func hasValues(in values: [String: Any]) -> Bool {
            requiredPaths.allSatisfy { path in
                var current: Any? = values
                for key in path { current = (current as? [String: Any])?[key] }
                guard let current else { return false }
                return !"\(current)".isEmpty
            }
        }
    }

    package let lines: [Line]

    public static let none = TemplateFallbacks(lines: [])

    /// Parses the file's text: one prompt per line, `#` starts a comment, blank lines are skipped.
    /// - Throws: ``TemplateError`` naming `file` and the line of a Mustache syntax error.
    public static func parse(_ text: String, file: String) throws(TemplateError) -> TemplateFallbacks {
        var lines: [Line] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let source = raw.trimmingSpaces
            guard !source.isEmpty, !source.hasPrefix("#") else { continue }
            do {
                let template = try MustacheTemplate(string: "{{% CONTENT_TYPE: TEXT}}" + source)
                lines.append(Line(number: index + 1, source: source, template: template, requiredPaths: Self.topLevelVariables(in: source)))
            } catch {
                throw TemplateError(file: file, line: index + 1, message: "Mustache syntax error: \(error)")
            }
        }
        return TemplateFallbacks(lines: lines)
    }

    /// Each line rendered for `context`, with what the validator made of it; a line missing a variable renders empty.
    package func rendered(for context: TemplateContext, validator: PromptValidator) -> [(line: Line, text: String, validation: PromptValidation)] {
        let values = context.mustacheValues
        return lines.map { line in
            let text = line.hasValues(in: values) ? line.template.render(values) : ""
            return (line, text, validator.validate([text]))
        }
    }

    /// The variables a line uses outside sections: `{{name}}`, `{{{name}}}`, `{{& name}}`, but not `{{.}}`, comments,
    /// or anything between `{{#x}}`/`{{^x}}` and `{{/x}}`, where the section already decides whether it renders.
    package static func topLevelVariables(in source: String) -> [[String]] {
        var paths: [[String]] = []
        var depth = 0
        var rest = Substring(source)
        while let open = rest.range(of: "{{") {
            let afterOpen = rest[open.upperBound...]
            guard let close = afterOpen.range(of: "}}") else { break }
            var tag = afterOpen[..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            rest = afterOpen[close.upperBound...]
            if rest.hasPrefix("}") { rest = rest.dropFirst() }
            guard let sigil = tag.first else { continue }
            switch sigil {
            case "#", "^": depth += 1
            case "/": depth = max(0, depth - 1)
            case "!", ">", "=", "%": continue
            default:
                if sigil == "{" || sigil == "&" { tag = String(tag.dropFirst()).trimmingCharacters(in: .whitespaces) }
                if depth == 0, tag != "." { paths.append(tag.split(separator: ".").map(String.init)) }
            }
        }
        return paths
    }

    /// The lines that, rendered for `context`, pass the word rule and the checks.
    package func usable(for context: TemplateContext, validator: PromptValidator) -> [String] {
        // Most templates have none; building the Mustache values is not free on the cache-hit path.
        guard !lines.isEmpty else { return [] }
        return rendered(for: context, validator: validator).compactMap { $0.validation.kept.first?.text }
    }
}
