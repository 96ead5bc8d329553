/// The last `capacity` values recorded, the oldest overwritten first: a backend's recent latencies and token counts.
package struct RecentSamples<Value> {
    /// The values kept, in no particular order.
    package private(set) var values: [Value] = []
    private var next = 0
    private let capacity: Int

    package init(capacity: Int) {
        self.capacity = capacity
    }

    package mutating func record(_ value: Value) {
        if values.count < capacity {
            values.append(value)
        } else {
            values[next] = value
        }
        next = (next + 1) % capacity
    }
}
