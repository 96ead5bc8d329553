import Foundation
import Logging
import PromptDomain
import Synchronization

/// An edit that did not pass the checks.
public struct TemplateRejection: Sendable {
    /// The file, line and reason.
    public var error: TemplateError
    public var at: Date
    /// What asked for the reload.
    public var trigger: String
}
