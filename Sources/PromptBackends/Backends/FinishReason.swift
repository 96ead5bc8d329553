/// Why a model stopped writing.
public enum FinishReason: Sendable, Equatable, CustomStringConvertible {
    /// It finished (`stop`, `end_turn`, `stop_sequence`).
    case stop
    /// It hit its token limit (`length`, `max_tokens`).
    case length
    /// A provider's filter stopped it (`content_filter`, `refusal`).
    case filtered
    /// Anything else, as the provider spelled it.
    case other(String)

    public init(_ raw: String) {
        switch raw {
        case "stop", "end_turn", "stop_sequence", "eos": self = .stop
        case "length", "max_tokens", "model_length": self = .length
        case "content_filter", "refusal", "safety": self = .filtered
        default: self = .other(raw)
        }
    }

    public var description: String {
        switch self {
        case .stop: "stop"
        case .length: "length"
        case .filtered: "filtered"
        case .other(let raw): raw
        }
    }
}
