import Foundation
import Synchronization

/// Bits from the kernel's cryptographically secure generator (`/dev/urandom`), read 4 KiB at a time.
///
/// Ids are made four times per new session. Drawing their bits with `SystemRandomNumberGenerator` cost a
/// `getrandom` call per 64 bits, eight a request, and a profile put those at 7 % of a cache hit's CPU. Here one
/// read serves 256 ids. The bits are the kernel's own, only drawn ahead; each is handed out once. Where
/// `/dev/urandom` cannot be read, each draw falls back to `SystemRandomNumberGenerator`.
final class KernelRandomPool: Sendable {
    static let shared = KernelRandomPool()

    private static let refillBytes = 4096

    private struct State {
        var bytes: [UInt8] = []
        var next = 0
    }

    private let state = Mutex(State())

    /// 128 fresh random bits.
    func next128() -> (UInt64, UInt64) {
        let drawn = state.withLock { state -> (UInt64, UInt64)? in
            if state.next + 16 > state.bytes.count {
                guard let bytes = Self.readKernelBytes(Self.refillBytes) else { return nil }
                state = State(bytes: bytes)
            }
            defer { state.next += 16 }
            return state.bytes.withUnsafeBytes { buffer in
                (
                    buffer.loadUnaligned(fromByteOffset: state.next, as: UInt64.self),
                    buffer.loadUnaligned(fromByteOffset: state.next + 8, as: UInt64.self)
                )
            }
        }
        if let drawn { return drawn }
        var generator = SystemRandomNumberGenerator()
        return (generator.next(), generator.next())
    }

    /// `count` bytes from `/dev/urandom`, or `nil` if it cannot be read in full.
    private static func readKernelBytes(_ count: Int) -> [UInt8]? {
        let descriptor = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + filled, count - filled)
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return nil }
            filled += got
        }
        return bytes
    }
}
