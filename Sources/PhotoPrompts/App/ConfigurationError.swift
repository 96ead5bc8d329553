/// A configuration value that stops start-up, naming the key the operator has to fix.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// The environment variable, e.g. `HTTP_PORT`.
    public var key: String
    public var problem: String

    /// "Invalid configuration: HTTP_PORT must be an integer from 0 to 65535 (got "abc")"
    public var description: String { "Invalid configuration: \(key) \(problem)" }
}
