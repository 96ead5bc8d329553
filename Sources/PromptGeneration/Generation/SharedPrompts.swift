import PromptDomain
import Synchronization

/// The good prompts one backend run has found so far, handed to every streamed request that shares the run
/// (``SingleFlight``): one that joins late gets those found at once, then each further one as it is found.
/// Listeners are called under the lock, so each hears the prompts in the order they were found; a listener only
/// hands a prompt on (to its request's event stream) and never calls back in.
package final class SharedPrompts: Sendable {
    private struct State {
        var found: [ValidPrompt] = []
        var listeners: [@Sendable (ValidPrompt) -> Void] = []
    }

    private let state = Mutex(State())

    /// A prompt the run found: every listener hears it now, and later listeners at once when they join.
    package func publish(_ prompt: ValidPrompt) {
        state.withLock { state in
            state.found.append(prompt)
            for listener in state.listeners { listener(prompt) }
        }
    }

    /// Hands `listener` every prompt found so far, then each one found after.
    package func listen(_ listener: @escaping @Sendable (ValidPrompt) -> Void) {
        state.withLock { state in
            for prompt in state.found { listener(prompt) }
            state.listeners.append(listener)
        }
    }
}
