import Foundation
import PromptDomain

public enum IdempotencyClaim: Sendable, Equatable {
    /// This request makes the answer.
    case claimed
    /// The answer is kept: replay it.
    case answered(StoredResponse)
    /// Another request, with this fingerprint, is making it now.
    case running(fingerprint: String)
}
