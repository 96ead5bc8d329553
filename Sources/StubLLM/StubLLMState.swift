/// The stub's switchable behaviour and its call counter, shared by every request.
public actor StubLLMState {
    /// The current behaviour.
    public private(set) var behaviour: StubBehaviour
    /// Delay before answering, in milliseconds.
    public private(set) var latencyMilliseconds: Int
    /// Chat completion requests received since start or the last reset.
    public private(set) var calls = 0

    /// Creates the state.
    public init(behaviour: StubBehaviour = .normal, latencyMilliseconds: Int = 0) {
        self.behaviour = behaviour
        self.latencyMilliseconds = latencyMilliseconds
    }

    /// Switches behaviour and, if given, latency.
    public func set(behaviour: StubBehaviour, latencyMilliseconds: Int? = nil) {
        self.behaviour = behaviour
        if let latencyMilliseconds { self.latencyMilliseconds = latencyMilliseconds }
    }

    /// Counts one call and returns the behaviour and latency to answer it with.
    func recordCall() -> (StubBehaviour, Int) {
        calls += 1
        return (behaviour, latencyMilliseconds)
    }

    /// Zeroes the counter and returns to normal, instant answers.
    public func reset() {
        calls = 0
        behaviour = .normal
        latencyMilliseconds = 0
    }
}
