/// A template or fallback file that cannot be used, naming the file and, where known, the line.
public struct TemplateError: Error, Sendable, CustomStringConvertible {
    public var file: String
    /// The 1-based line, when the parser reported one.
    public var line: Int?
    public var message: String

    public init(file: String, line: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// "photo-journal/user.mustache:3"
    public var location: String {
        "\(file)\(line.map { ":\($0)" } ?? "")"
    }

    /// "photo-journal/user.mustache:3: Mustache syntax error: …"
    public var description: String {
        "\(location): \(message)"
    }
}
