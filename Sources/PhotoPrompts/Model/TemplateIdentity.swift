/// Which template produced an answer: its name and the content hash of the version in use.
public struct TemplateIdentity: Codable, Sendable, Equatable {
    /// The template's folder name in `prompts/`, e.g. "photo-journal".
    public var name: String
    /// A hash of the template's files, so any edit yields a new version (and new cache keys).
    public var version: String

    /// Creates an identity.
    public init(name: String, version: String) {
        self.name = name
        self.version = version
    }
}
