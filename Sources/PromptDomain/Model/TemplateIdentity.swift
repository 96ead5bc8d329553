/// Which template produced an answer: the configured template, the A/B variant it was assigned, and the content
/// hash of the variant's version in use.
public struct TemplateIdentity: Codable, Sendable, Equatable, Hashable {
    /// The configured template (`PROMPTS_TEMPLATE`), e.g. "photo-journal": the experiment's name.
    public var name: String
    /// The folder actually rendered: `name` itself, or one of its variants such as "photo-journal-b".
    public var variant: String
    /// A hash of the variant's files, so any edit yields a new version (and new cache keys).
    public var version: String

    /// Creates an identity; without a `variant`, the template is its own.
    public init(name: String, variant: String? = nil, version: String) {
        self.name = name
        self.variant = variant ?? name
        self.version = version
    }

    /// `variant@version`: how log lines, spans and the model call name the version that rendered a request.
    public var label: String { "\(variant)@\(version)" }

    /// The same variant and version, as part of the experiment `name`.
    public func assigned(to name: String) -> TemplateIdentity {
        TemplateIdentity(name: name, variant: variant, version: version)
    }
}
