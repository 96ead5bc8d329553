import Foundation

/// A template version's files as they were when it first served, kept so operators can diff any two versions
/// after the folder has moved on.
public struct TemplateVersionFiles: Sendable, Equatable, Codable {
    public var template: TemplateIdentity
    /// File name (`system.mustache`, `user.mustache`, `settings.json`, `fallbacks.txt`) to its text.
    public var files: [String: String]
    /// When this instance first loaded it.
    public var firstSeen: Date

    public init(template: TemplateIdentity, files: [String: String], firstSeen: Date) {
        self.template = template
        self.files = files
        self.firstSeen = firstSeen
    }
}
