import Foundation
import Logging

/// Why a session request was refused.
public enum SessionError: Error, Equatable {
    /// No such session, or it expired.
    case notFound
    /// The session's refreshes are all used or in flight.
    case refreshLimitReached(refreshesUsed: Int, copy: ProductCopy)
    /// The session never showed the prompt named.
    case promptNotFound
    /// Another refresh of the session still held its turn at this request's deadline.
    case refreshInProgress
}
