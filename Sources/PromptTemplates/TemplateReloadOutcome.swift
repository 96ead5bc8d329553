import Foundation
import Logging
import Synchronization

public enum TemplateReloadOutcome: Sendable {
    /// A new version is live.
    case loaded(TemplateSet)
    /// The files load to the versions already live.
    case unchanged(TemplateSet)
    /// The edit is broken; the previous version keeps serving.
    case rejected(TemplateRejection)
}
