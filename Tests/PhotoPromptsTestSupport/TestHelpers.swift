import Foundation

/// A small deterministic generator (SplitMix64) so the mutation test is reproducible.
public struct SeededGenerator: RandomNumberGenerator {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The names of `value`'s stored properties, nested ones as `outer.inner`, that hold `nil`.
public func unsetProperties(of value: Any, prefix: String = "") -> [String] {
    Mirror(reflecting: value).children.flatMap { child -> [String] in
        let name = prefix + (child.label ?? "?")
        let inner = Mirror(reflecting: child.value)
        guard inner.displayStyle == .optional else {
            return inner.displayStyle == .struct ? unsetProperties(of: child.value, prefix: name + ".") : []
        }
        guard let wrapped = inner.children.first?.value else { return [name] }
        return Mirror(reflecting: wrapped).displayStyle == .struct ? unsetProperties(of: wrapped, prefix: name + ".") : []
    }
}
