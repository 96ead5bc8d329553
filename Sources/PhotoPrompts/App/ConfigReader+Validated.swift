import Configuration
import Foundation

/// Strict reads: swift-configuration falls back to the default when a value does not convert, which would
/// silently run a service on the wrong port. These read the raw value and fail, naming the key, instead.
extension ConfigReader {
    /// The string at `key`, or `defaultValue` when it is unset or empty.
    func text(_ key: ConfigKey, default defaultValue: String, isSecret: Bool = false) -> String {
        let value = string(forKey: key, isSecret: isSecret) ?? int(forKey: key).map(String.init)
        guard let value, !value.isEmpty else { return defaultValue }
        return value
    }

    /// The optional string at `key`; empty counts as unset.
    func optionalText(_ key: ConfigKey, isSecret: Bool = false) -> String? {
        guard let value = string(forKey: key, isSecret: isSecret), !value.isEmpty else { return nil }
        return value
    }

    /// The integer at `key` within `range`, or `defaultValue` when unset.
    func integer(_ key: ConfigKey, default defaultValue: Int, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        if let value = int(forKey: key) {
            guard range.contains(value) else { throw outOfRange(key, "\(value)", range) }
            return value
        }
        guard let raw = optionalText(key) else { return defaultValue }
        guard let value = Int(raw.trimmingCharacters(in: .whitespaces)), range.contains(value) else { throw outOfRange(key, raw, range) }
        return value
    }

    /// A number of seconds at `key` (fractions allowed), greater than zero and at most `maximum`.
    func seconds(_ key: ConfigKey, default defaultValue: Double, maximum: Double) throws(ConfigurationError) -> Double {
        let value: Double
        if let number = double(forKey: key) {
            value = number
        } else if let raw = optionalText(key) {
            guard let parsed = Double(raw.trimmingCharacters(in: .whitespaces)) else {
                throw ConfigurationError(key: Self.environmentName(key), problem: "must be a number of seconds (got \"\(raw)\")")
            }
            value = parsed
        } else {
            return defaultValue
        }
        guard value > 0, value <= maximum else {
            throw ConfigurationError(key: Self.environmentName(key), problem: "must be more than 0 and at most \(maximum) seconds (got \(value))")
        }
        return value
    }

    /// One of `Choice`'s values at `key`, written in any case, or `defaultValue` when unset.
    func choice<Choice: RawRepresentable<String> & CaseIterable>(
        _ key: ConfigKey,
        default defaultValue: Choice
    ) throws(ConfigurationError) -> Choice {
        let raw = text(key, default: defaultValue.rawValue)
        guard let value = Choice(rawValue: raw.lowercased()) else {
            let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigurationError(key: Self.environmentName(key), problem: "must be one of \(names) (got \"\(raw)\")")
        }
        return value
    }

    /// The environment variable that sets `key`: `http.port` is `HTTP_PORT`, `llm.baseURL` is `LLM_BASE_URL`.
    static func environmentName(_ key: ConfigKey) -> String {
        key.components.map { component in
            var name = ""
            for character in component {
                if character.isUppercase, let last = name.last, last.isLowercase { name.append("_") }
                name.append(character)
            }
            return name.uppercased()
        }.joined(separator: "_")
    }

    private func outOfRange(_ key: ConfigKey, _ raw: String, _ range: ClosedRange<Int>) -> ConfigurationError {
        ConfigurationError(
            key: Self.environmentName(key),
            problem: "must be an integer from \(range.lowerBound) to \(range.upperBound) (got \"\(raw)\")"
        )
    }
}
