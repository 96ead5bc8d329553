import Foundation
import PromptDomain

/// Everything the service renders with, loaded and checked as one unit: the configured template, its A/B
/// variants, and the product's copy in every language.
///
/// A set is immutable. Hot reload builds a new one and swaps it in whole (``TemplateLibrary``); a request takes the
/// live set once and uses it throughout, so no request ever sees half of an edit.
public struct TemplateSet: Sendable {
    /// The configured template (`PROMPTS_TEMPLATE`): the experiment's name.
    public let name: String
    /// The configured template and each of its variants, by folder name.
    public let templates: [String: PromptTemplate]
    /// The weighted variants; a single entry (the template itself, weight 1) when there is no A/B test.
    public let variants: [TemplateVariant]
    /// The product's messages and fallbacks per language; the fallbacks follow a template's own and skip the word rule.
    public let copy: CopyCatalog

    /// Loads and checks `name`, its variants and `copy/`; throws ``TemplateError`` naming the file (and line) at fault.
    public static func load(
        name: String,
        from directory: String,
        dictionaries: SpellingDictionaries,
        now: Date = Date()
    ) throws(TemplateError) -> TemplateSet {
        let base = try PromptTemplate.load(name: name, from: directory, dictionaries: dictionaries)
        var templates = [name: base]
        for variant in base.settings.variants where templates[variant.name] == nil {
            do {
                templates[variant.name] = try PromptTemplate.load(name: variant.name, from: directory, dictionaries: dictionaries)
            } catch {
                throw TemplateError(
                    file: "\(name)/settings.json",
                    message: "variant \"\(variant.name)\" cannot be loaded: \(error)"
                )
            }
        }
        let set = TemplateSet(
            name: name,
            templates: templates,
            variants: base.settings.variants.isEmpty ? [TemplateVariant(name: name, weight: 1)] : base.settings.variants,
            copy: try CopyCatalog.load(from: directory)
        )
        for template in templates.values.sorted(by: { $0.identity.name < $1.identity.name }) {
            try Self.check(template, now: now)
        }
        return set
    }

    /// The template a new session uses: a weighted draw, taking no random number (a system call) for one variant.
    public func assignVariant() -> PromptTemplate {
        let total = variants.reduce(0) { $0 + $1.weight }
        var threshold = (variants.count > 1 ? Double.random(in: 0..<1) : 0) * Double(total)
        for variant in variants where variant.weight > 0 {
            threshold -= Double(variant.weight)
            if threshold < 0, let template = templates[variant.name] { return template }
        }
        return base
    }

    /// The template a session started with, so refreshes keep its variant; the configured one if that was removed.
    public func template(forVariant variant: String) -> PromptTemplate { templates[variant] ?? base }

    public var base: PromptTemplate {
        // `load` always puts the configured template in `templates`.
        templates[name]!
    }

    /// The versions in use, by folder name, for logs and `GET /admin/templates`.
    public var versions: [String: String] { templates.mapValues(\.identity.version) }

    /// Renders `template` against sample photos and its fallbacks against the fullest one, before it may serve.
    /// Mustache cannot fail at render time, so the result is checked: both parts must render to something for a photo
    /// with every field and for one with none, and every fallback line must pass the word rule and the checks.
    package static func check(_ template: PromptTemplate, now: Date) throws(TemplateError) {
        let name = template.identity.name
        func context(_ sample: SamplePhotos.Sample) -> TemplateContext {
            TemplateContext(photo: sample.photo, locale: LanguageTag(locale: "en-US"), candidateCount: template.settings.candidateCount, now: now)
        }
        for sample in SamplePhotos.all {
            let rendered = template.render(context(sample))
            if rendered.system.isEmpty {
                throw TemplateError(file: "\(name)/system.mustache", message: "renders to nothing for the \(sample.name) sample photo")
            }
            if rendered.user.isEmpty {
                throw TemplateError(file: "\(name)/user.mustache", message: "renders to nothing for the \(sample.name) sample photo")
            }
        }
        // Judged on full photos taken years ago and yesterday, so `{{#years_ago}}` and `{{#is_recent}}` lines are
        // checked too. A line needing a missing field drops out at request time; here it must pass wherever it renders.
        var rendersSomewhere = Set<Int>()
        for sample in SamplePhotos.fullSamples(now: now) {
            for (line, text, validation) in template.fallbacks.rendered(for: context(sample), validator: template.validator(for: .english)) {
                guard validation.rejected.first?.reason != .empty else { continue }
                rendersSomewhere.insert(line.number)
                if let rejection = validation.rejected.first {
                    throw TemplateError(
                        file: "\(name)/fallbacks.txt",
                        line: line.number,
                        message: "renders as \"\(text)\" for the \(sample.name) sample photo, which fails the word rule: \(rejection.reason)"
                    )
                }
            }
        }
        if let silent = template.fallbacks.lines.first(where: { !rendersSomewhere.contains($0.number) }) {
            throw TemplateError(file: "\(name)/fallbacks.txt", line: silent.number, message: "renders to nothing for every sample photo")
        }
    }
}

/// The photos a template is rendered against before it may serve.
package enum SamplePhotos {
    package struct Sample {
        package var name: String
        package var photo: PhotoMetadata
    }

    /// Every field set.
    package static let full = Sample(
        name: "full",
        photo: PhotoMetadata(
            takenAt: "2024-07-14T18:30:00+02:00",
            location: .init(name: "Jardin du Luxembourg", locality: "Paris", country: "France", latitude: 48.846, longitude: 2.337),
            labels: ["park", "picnic", "dog"],
            peopleCount: 3,
            caption: "Sunday picnic with the cousins",
            source: "camera"
        )
    )

    /// No metadata at all: an empty `photo` object is a valid request.
    package static let empty = Sample(name: "empty", photo: PhotoMetadata())

    package static let all = [full, empty]

    /// The full sample, and the same photo taken yesterday.
    package static func fullSamples(now: Date) -> [Sample] {
        var recent = full
        recent.name = "recent"
        recent.photo.takenAt = now.addingTimeInterval(-86_400).formatted(.iso8601)
        return [full, recent]
    }
}
