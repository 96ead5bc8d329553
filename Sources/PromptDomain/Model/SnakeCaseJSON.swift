import Foundation

/// The one JSON setup: keys are snake_case on the wire (`taken_at`) and camelCase in Swift (`takenAt`), so a type spells
/// its keys out only where they differ by more than case. The API, the stores' columns, the providers' replies and the
/// eval report all read and write through it.
package enum SnakeCaseJSON {
    /// The API's encoder: sorted keys (responses, idempotent replays and docs are byte-for-byte reproducible), slashes
    /// unescaped. Shared: it keeps no state between calls.
    package static let encoder = makeEncoder()

    /// Reads `session_id` as `sessionID`: Foundation's `convertFromSnakeCase` but with an `id` word as `ID`, as Swift
    /// spells it and `convertToSnakeCase` writes it. A key without `_` is read as it is (the stored `wordCount`).
    package static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in Key(camelCase(path[path.count - 1].stringValue)) }
        return decoder
    }()

    /// A snake_case encoder with other formatting, e.g. `photo-prompts eval`'s pretty-printed report.
    package static func makeEncoder(_ formatting: JSONEncoder.OutputFormatting = [.sortedKeys, .withoutEscapingSlashes]) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }

    /// `session_id` → `sessionID`, `latency_p50_ms` → `latencyP50Ms`.
    package static func camelCase(_ key: String) -> String {
        guard key.contains("_"), !key.hasPrefix("_"), !key.hasSuffix("_") else { return key }
        var camel = ""
        for word in key.split(separator: "_") {
            let lower = word.lowercased()
            camel += camel.isEmpty ? lower : lower == "id" ? "ID" : lower.prefix(1).uppercased() + lower.dropFirst()
        }
        return camel
    }

    /// `sessionID` → `session_id`, `latencyP50Ms` → `latency_p50_ms`: the key as `convertToSnakeCase` writes it. A capital
    /// starts a word after a lower-case letter or digit, and the last of a run of capitals starts one before a lower-case letter.
    package static func snakeCase(_ key: String) -> String {
        let letters = Array(key)
        var snake = ""
        for (index, letter) in letters.enumerated() {
            if letter.isUppercase, index > 0, !letters[index - 1].isUppercase || (index + 1 < letters.count && letters[index + 1].isLowercase) {
                snake += "_"
            }
            snake += letter.lowercased()
        }
        return snake
    }

    /// A key by name: what the decoder's strategy hands back.
    package struct Key: CodingKey {
        package var stringValue: String
        package var intValue: Int? { nil }
        package init(_ stringValue: String) { self.stringValue = stringValue }
        package init?(stringValue: String) { self.stringValue = stringValue }
        package init?(intValue: Int) { nil }
    }
}
