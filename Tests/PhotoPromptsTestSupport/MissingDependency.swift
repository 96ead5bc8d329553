import Foundation
import Testing

/// What a test does when the machine lacks something it needs (PostgreSQL, nginx, `llama-server`, a model, a
/// dictionary): under CI it fails and names what is missing; on a developer's machine it is skipped with the reason
/// printed. A quiet skip would let `swift test` exit 0 with half the proof not run.
package enum MissingDependency {
    /// Whether this run is CI's: `CI` set to anything but empty, `0` or `false` (the convention CI services share).
    package static var isCI: Bool {
        guard let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() else { return false }
        return !["", "0", "false", "no"].contains(value)
    }

    /// Fails the test under CI, skips it elsewhere; `what` says what is missing and how to get it.
    package static func skipOrFail(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Never {
        if isCI {
            throw Missing(description: "missing under CI, so this test fails: \(what)")
        }
        try Test.cancel(Comment(rawValue: "skipped: \(what)"), sourceLocation: sourceLocation)
    }

    /// The failure a missing dependency is under CI.
    package struct Missing: Error, CustomStringConvertible {
        package let description: String
    }
}
