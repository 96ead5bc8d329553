extension Duration {
    /// The duration in milliseconds, with fractions: for metrics, eval's latencies and `Server-Timing`.
    package var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
