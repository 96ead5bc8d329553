/// Lets identical work in flight at the same time run once, every caller receiving the one result.
///
/// "Identical" is decided by the key (the cache key): a double tap or a client's retry shares one backend call.
actor SingleFlight<Value: Sendable> {
    private var inFlight: [String: Task<Value, Never>] = [:]

    /// Runs `operation` for `key`, or joins the run already in flight. `joined` tells which happened.
    ///
    /// The work runs in its own task, so one caller's cancellation does not fail the others.
    func run(_ key: String, _ operation: @escaping @Sendable () async -> Value) async -> (value: Value, joined: Bool) {
        if let running = inFlight[key] {
            return (await running.value, true)
        }
        let task = Task { await operation() }
        inFlight[key] = task
        let value = await task.value
        inFlight[key] = nil
        return (value, false)
    }
}
