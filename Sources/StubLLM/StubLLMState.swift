/// The stub's switchable behaviour and its call counter, shared by every request.
public actor StubLLMState {
    public private(set) var behaviour: StubBehaviour
    public private(set) var latencyMilliseconds: Int
    /// Chat completion requests received since start or the last reset.
    public private(set) var calls = 0
    /// `GET /v1/models` requests received since start or the last reset: how often a backend asked what server this is.
    public private(set) var modelListRequests = 0
    /// Distinct client connections that sent model requests since start or the last reset.
    public var connections: Int { remotePorts.count }
    private var remotePorts: Set<Int> = []
    public private(set) var inFlight = 0
    /// The most requests answered at once since start or the last reset.
    public private(set) var maxInFlight = 0
    /// Calls still to be failed with HTTP 500 before the behaviour applies (`fail_first`).
    public private(set) var failuresLeft = 0
    /// The `Retry-After` header a `rate_limited` answer carries: seconds or an HTTP date, as sent.
    public private(set) var retryAfter = "30"
    /// The body of the last request received, for tests that check what the service sent.
    public private(set) var lastRequestBody = ""
    public private(set) var lastTraceparent: String?
    /// Set by ``releaseAll()`` so hanging and trickling answers stop, letting the server shut down promptly.
    public private(set) var isReleased = false
    /// For a streamed reply: the pause between tokens in ms (25 is 40 tokens a second), the first after the latency.
    public private(set) var tokenDelayMilliseconds: Int
    /// For a streamed reply: stop after this many tokens and keep the connection open, saying nothing more.
    public private(set) var stallAfterTokens: Int?

    public init(behaviour: StubBehaviour = .normal, latencyMilliseconds: Int = 0, tokenDelayMilliseconds: Int = 0, stallAfterTokens: Int? = nil) {
        self.behaviour = behaviour
        self.latencyMilliseconds = latencyMilliseconds
        self.tokenDelayMilliseconds = tokenDelayMilliseconds
        self.stallAfterTokens = stallAfterTokens
    }

    /// Sets how a streamed reply is written: the pause between tokens, and after how many it stalls (nil: never).
    public func setStreaming(tokenDelayMilliseconds: Int, stallAfterTokens: Int?) {
        self.tokenDelayMilliseconds = tokenDelayMilliseconds
        self.stallAfterTokens = stallAfterTokens
    }

    /// Switches behaviour and, if given, latency and the number of calls to fail first.
    public func set(behaviour: StubBehaviour, latencyMilliseconds: Int? = nil, failFirst: Int? = nil, retryAfter: String? = nil) {
        self.behaviour = behaviour
        if let latencyMilliseconds { self.latencyMilliseconds = latencyMilliseconds }
        if let failFirst { failuresLeft = failFirst }
        if let retryAfter { self.retryAfter = retryAfter }
    }

    /// Counts one call and returns the behaviour and latency to answer it with.
    package func recordCall(body: String, traceparent: String? = nil, remotePort: Int?) -> (StubBehaviour, Int) {
        calls += 1
        if let remotePort { remotePorts.insert(remotePort) }
        inFlight += 1
        maxInFlight = max(maxInFlight, inFlight)
        lastRequestBody = body
        lastTraceparent = traceparent
        if failuresLeft > 0 {
            failuresLeft -= 1
            return (.serverError, latencyMilliseconds)
        }
        return (behaviour, latencyMilliseconds)
    }

    /// The `owned_by` the model list names instead of the behaviour's (``StubBehaviour/serverOwner``), if set.
    public private(set) var serverOwner: String?

    /// Plays another server in the model list: `"llamacpp"`, or any other owner for a generic OpenAI-compatible one.
    public func set(serverOwner: String?) { self.serverOwner = serverOwner }

    /// Counts one model-list request and returns the owner the list names.
    func listModels() -> String {
        modelListRequests += 1
        return serverOwner ?? behaviour.serverOwner
    }

    package func recordAnswered() { inFlight -= 1 }

    /// Ends every hanging or trickling answer; call before stopping the server.
    public func releaseAll() { isReleased = true }

    /// Zeroes the counter and returns to normal, instant answers.
    public func reset() {
        calls = 0
        modelListRequests = 0
        remotePorts = []
        failuresLeft = 0
        maxInFlight = inFlight
        behaviour = .normal
        latencyMilliseconds = 0
        retryAfter = "30"
        tokenDelayMilliseconds = 0
        stallAfterTokens = nil
        serverOwner = nil
    }
}
