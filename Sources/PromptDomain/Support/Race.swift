import Synchronization

/// One result, set once by whichever side finishes first, handed to the one waiter.
final class Race<Value: Sendable>: Sendable {
    private enum State {
        case running
        case waiting(CheckedContinuation<Value, any Error>)
        case finished(Result<Value, any Error>)
    }

    private let state = Mutex(State.running)

    /// Sets the result unless one is set; returns whether this call set it.
    @discardableResult
    func finish(with result: Result<Value, any Error>) -> Bool {
        let (won, waiter): (Bool, CheckedContinuation<Value, any Error>?) = state.withLock { state in
            switch state {
            case .finished:
                return (false, nil)
            case .running:
                state = .finished(result)
                return (true, nil)
            case .waiting(let continuation):
                state = .finished(result)
                return (true, continuation)
            }
        }
        waiter?.resume(with: result)
        return won
    }

    /// The result, once set.
    var value: Value {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let finished: Result<Value, any Error>? = state.withLock { state in
                    if case .finished(let result) = state { return result }
                    state = .waiting(continuation)
                    return nil
                }
                if let finished { continuation.resume(with: finished) }
            }
        }
    }
}
