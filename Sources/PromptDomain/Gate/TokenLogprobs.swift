/// The generating model's own log-probability of each token it wrote, as llama.cpp's server reports it (`logprobs`,
/// taken before the grammar and the sampler): the fluency rule's evidence, which costs no second call. A word the
/// grammar forced against the model's will, or a phrase that does not hang together, is a token the model found
/// improbable. Tokens are kept by where they end in the reply's UTF-8 bytes, so each candidate line finds its own.
public struct TokenLogprobs: Sendable, Equatable {
    private var ends: [Int] = []
    private var logprobs: [Double] = []
    /// Whether the token holds more than white space: a line break or a space says nothing about the sentence.
    private var counts: [Bool] = []

    public init() {}

    /// The UTF-8 length of the text the tokens spell.
    public var byteCount: Int { ends.last ?? 0 }
    public var isEmpty: Bool { ends.isEmpty }

    /// Adds the next token: its text (`bytes` where the provider splits a character between tokens) and log-probability.
    public mutating func append(_ token: String, bytes: [UInt8]? = nil, logprob: Double) {
        ends.append((ends.last ?? 0) + (bytes?.count ?? token.utf8.count))
        logprobs.append(logprob)
        counts.append(token.contains { !$0.isWhitespace })
    }

    /// Adds `other`'s tokens after these: a streamed reply's, chunk by chunk.
    public mutating func append(contentsOf other: TokenLogprobs) {
        let offset = byteCount
        ends += other.ends.map { $0 + offset }
        logprobs += other.logprobs
        counts += other.counts
    }

    /// The lowest log-probability of a token that starts inside `bytes` (UTF-8 offsets into the reply) and inside none
    /// of `skipped`; nil for none.
    public func lowest(startingIn bytes: Range<Int>, skipping skipped: [Range<Int>] = []) -> Double? {
        var lowest: Double?
        for index in ends.indices where counts[index] {
            let start = index == 0 ? 0 : ends[index - 1]
            guard start < bytes.upperBound else { break }
            if start >= bytes.lowerBound, !skipped.contains(where: { $0.contains(start) }) {
                lowest = min(lowest ?? logprobs[index], logprobs[index])
            }
        }
        return lowest
    }
}
