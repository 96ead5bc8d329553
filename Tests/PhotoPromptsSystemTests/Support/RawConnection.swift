import Dispatch
import Foundation
import PhotoPromptsTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to the service, for bytes no HTTP client would send: a bad chunk, a body that stops, a
/// connection that says nothing. Blocking socket calls run on a Dispatch thread, never on Swift's pool, which the
/// in-process service needs.
final class RawConnection: Sendable {
    private let socket: Int32

    /// Connects to 127.0.0.1:`port`.
    init(port: Int) throws {
        let handle = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard handle >= 0 else { throw FixtureError("socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(handle, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(handle)
            throw FixtureError("connect() failed")
        }
        socket = handle
    }

    deinit { close(socket) }

    /// Sends `text` as is.
    func send(_ text: String) async throws {
        let bytes = Array(text.utf8)
        let sent = await onDispatch { bytes.withUnsafeBytes { Glibc.send(self.socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        guard sent == bytes.count else { throw FixtureError("send() sent \(sent) of \(bytes.count) bytes") }
    }

    /// Leaves as a client that gives up does: both directions are shut, and the server reads the end of its input.
    func hangUp() {
        shutdown(socket, Int32(SHUT_RDWR))
    }

    /// Everything the server sends until it closes the connection or `timeout` passes, and whether it closed.
    func readUntilClosed(timeout: Duration) async -> (text: String, closed: Bool) {
        await read(timeout: timeout) { _ in false }
    }

    /// One answer: its head, then as many body bytes as its `Content-Length` says, or what came before `timeout`.
    /// The connection stays open for the next request.
    func readResponse(timeout: Duration) async -> String {
        await read(timeout: timeout, until: Self.isComplete).text
    }

    /// What the server sends until `isEnough` says so, it closes the connection, or `timeout` passes.
    private func read(timeout: Duration, until isEnough: @escaping @Sendable ([UInt8]) -> Bool) async -> (text: String, closed: Bool) {
        await onDispatch {
            var received: [UInt8] = []
            let deadline = ContinuousClock.now + timeout
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while ContinuousClock.now < deadline, !isEnough(received) {
                var poller = pollfd(fd: self.socket, events: Int16(POLLIN), revents: 0)
                let waitMilliseconds = Int32(max(1, (deadline - ContinuousClock.now).components.seconds * 1000 + 1))
                guard poll(&poller, 1, min(waitMilliseconds, 100)) > 0 else { continue }
                let count = recv(self.socket, &buffer, buffer.count, 0)
                if count <= 0 { return (String(decoding: received, as: UTF8.self), true) }
                received += buffer[0..<count]
            }
            return (String(decoding: received, as: UTF8.self), false)
        }
    }

    /// Whether `bytes` hold a whole answer: the head and the body its `Content-Length` announces.
    private static func isComplete(_ bytes: [UInt8]) -> Bool {
        let separator = Array("\r\n\r\n".utf8)
        guard let headEnd = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else { return false }
        let head = String(decoding: bytes[..<headEnd], as: UTF8.self).lowercased()
        let length = head.firstMatch(of: /content-length: *([0-9]+)/).flatMap { Int($0.1) } ?? 0
        return bytes.count - (headEnd + separator.count) >= length
    }

    private func onDispatch<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }
}
