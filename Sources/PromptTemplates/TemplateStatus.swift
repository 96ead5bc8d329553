import Foundation
import Logging
import Synchronization

/// The live templates and the last rejected edit.
public struct TemplateStatus: Sendable {
    public var live: TemplateSet
    public var loadedAt: Date
    /// The last edit that was refused, unless a later reload succeeded.
    public var rejected: TemplateRejection?
}
