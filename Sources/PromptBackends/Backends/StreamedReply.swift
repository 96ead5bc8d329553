import Foundation
import PromptDomain
import Synchronization

/// A reply read as it arrives: the body's bytes split into lines, each line decoded by the provider's parser, its
/// text handed to the observer, and the whole reply assembled for the end. Fed from the transport's thread one chunk
/// at a time, then read once the transfer is done.
package final class StreamedReply: Sendable {
    /// What one line of a provider's stream says.
    package enum Event: Equatable {
        /// More text, with its tokens' log-probabilities where the provider sends them.
        case text(String, TokenLogprobs? = nil)
        case finished(FinishReason)
        case usage(prompt: Int?, completion: Int?, cached: Int? = nil)
    }

    private struct State {
        var pending: [UInt8] = []
        var text = ""
        var logprobs = TokenLogprobs()
        var finishReason: FinishReason?
        var promptTokens: Int?
        var completionTokens: Int?
        var cachedTokens: Int?
    }

    private let state = Mutex(State())
    private let parse: @Sendable (Substring) -> [Event]
    private let observer: (any ReplyObserver)?

    /// `parse` maps a line of the stream (without its newline) to what it says; blank and comment lines say nothing.
    package init(observer: (any ReplyObserver)?, parse: @escaping @Sendable (Substring) -> [Event]) {
        self.observer = observer
        self.parse = parse
    }

    /// Takes the next bytes of the body. Lines end at `\n`; a line's bytes are decoded only once it is whole, so a
    /// character split between two chunks is never cut.
    package func receive(_ bytes: UnsafeRawBufferPointer) {
        var lines: [Substring] = []
        state.withLock { state in
            state.pending.append(contentsOf: bytes)
            while let newline = state.pending.firstIndex(of: UInt8(ascii: "\n")) {
                var line = String(decoding: state.pending[..<newline], as: UTF8.self)
                if line.hasSuffix("\r") { line.removeLast() }
                lines.append(Substring(line))
                state.pending.removeSubrange(...newline)
            }
        }
        for line in lines { handle(line) }
    }

    /// The reply as the stream told it, once the body has ended; a last line without a newline is read too.
    package func finish() -> LLMReply {
        let rest = state.withLock { state -> Substring? in
            defer { state.pending = [] }
            return state.pending.isEmpty ? nil : Substring(String(decoding: state.pending, as: UTF8.self))
        }
        if let rest { handle(rest) }
        return state.withLock { state in
            LLMReply(
                text: state.text,
                finishReason: state.finishReason,
                usage: TokenUsage(prompt: state.promptTokens, completion: state.completionTokens).map {
                    TokenUsage(prompt: $0.prompt, completion: $0.completion, cached: state.cachedTokens ?? 0)
                },
                logprobs: state.logprobs.isEmpty ? nil : state.logprobs
            )
        }
    }

    private func handle(_ line: Substring) {
        for event in parse(line) {
            switch event {
            case .text(let text, let logprobs):
                state.withLock { state in
                    state.text += text
                    if let logprobs { state.logprobs.append(contentsOf: logprobs) }
                }
                observer?.received(text, logprobs: logprobs)
            case .finished(let reason):
                state.withLock { $0.finishReason = reason }
            case .usage(let prompt, let completion, let cached):
                state.withLock { state in
                    state.promptTokens = prompt ?? state.promptTokens
                    state.completionTokens = completion ?? state.completionTokens
                    state.cachedTokens = cached ?? state.cachedTokens
                }
            }
        }
    }

    /// The JSON after `data:` on a Server-Sent Events line, or nil for any other line.
    package static func eventData(_ line: Substring) -> Data? {
        guard line.hasPrefix("data:") else { return nil }
        let data = line.dropFirst(5).drop { $0 == " " }
        return data == "[DONE]" ? nil : Data(data.utf8)
    }
}
