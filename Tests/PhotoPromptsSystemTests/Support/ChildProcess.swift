import Foundation
import PhotoPromptsTestSupport
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A child process with its output captured, started with `posix_spawn`.
///
/// Not Foundation's `Process`: on Linux with Swift 6.3, `Process.run()` reads `/proc/self/fd` with a 256-byte copy
/// of each directory entry and sometimes reads past the end of glibc's buffer and crashes the test process
/// (swift-corelibs-foundation#5472). Parallel system tests, with many sockets open, hit it within a few runs.
final class ChildProcess: Sendable {
    let processIdentifier: pid_t
    private let captured = CapturedOutput()
    private let exitStatus = Mutex<Int32?>(nil)
    private let reader: FileHandle

    init(_ executable: URL, arguments: [String] = [], environment: [String: String] = [:]) throws {
        var pipeEnds: [Int32] = [0, 0]
        // No close-on-exec needed: every child, this one or a sibling spawned at the same moment, closes fds from 3 up.
        guard pipe(&pipeEnds) == 0 else { throw FixtureError("pipe failed: errno \(errno)") }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)
        // The child must not inherit the test process's sockets and files: a killed service whose listening socket
        // lives on in a sibling would keep its port answering.
        try Self.closeFrom3(&actions)

        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }

        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable.path, &actions, nil, argv, envp)
        close(writeEnd)
        guard result == 0 else {
            close(readEnd)
            throw FixtureError("cannot start \(executable.path): errno \(result)")
        }
        processIdentifier = pid
        reader = FileHandle(fileDescriptor: readEnd, closeOnDealloc: true)
        reader.readabilityHandler = { [captured] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil } else { captured.append(data) }
        }
    }

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34) is not in Swift's Glibc module, so it is looked up.
    private static func closeFrom3(_ actions: inout posix_spawn_file_actions_t) throws {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
            throw FixtureError("this libc has no posix_spawn_file_actions_addclosefrom_np (glibc 2.34 or later needed)")
        }
        _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
    }

    /// Everything printed so far.
    var output: String { captured.text }

    /// Whether the child is still running; reaps it once it has exited.
    var isRunning: Bool {
        exitStatus.withLock { status in
            guard status == nil else { return false }
            var raw: Int32 = 0
            guard waitpid(processIdentifier, &raw, WNOHANG) == processIdentifier else { return true }
            // Exit code when it exited, the signal's number when a signal ended it (as Foundation's Process says).
            status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : raw & 0x7f
            return false
        }
    }

    /// The exit code, or the number of the signal that ended it; only meaningful once `isRunning` is false.
    var terminationStatus: Int32 { exitStatus.withLock { $0 ?? -1 } }

    /// Sends SIGTERM.
    func terminate() { kill(processIdentifier, SIGTERM) }

    /// Waits until a printed line satisfies `match`, or gives up after `timeout`.
    func firstLine(matching match: (Substring) -> Bool, timeout: Duration = .seconds(10)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let line = output.split(separator: "\n").first(where: match) { return String(line) }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw FixtureError("no matching output line in: \(output)")
    }

    /// The port a `photo-prompts serve` child bound, read from its "Server started" line (in any log format).
    func listeningPort() async throws -> Int {
        let started = try await firstLine { $0.contains("Server started") }
        guard let port = started.firstMatch(of: /127\.0\.0\.1:(\d+)/).flatMap({ Int($0.1) }) else {
            throw FixtureError("no port in: \(started)")
        }
        return port
    }

    /// The exit status and everything printed, once the process has exited. A child still running after `timeout`
    /// is killed and the wait throws, naming what it printed: a hung child fails its test instead of stalling the run.
    func waitForExit(timeout: Duration = .seconds(60)) async throws -> (status: Int32, output: String) {
        // Polled, not a blocking `waitpid`: blocking one of the few cooperative threads would starve the in-process
        // stub model that the child may be talking to.
        let deadline = ContinuousClock.now + timeout
        while isRunning {
            guard ContinuousClock.now < deadline else {
                kill(processIdentifier, SIGKILL)
                throw FixtureError("child \(processIdentifier) still running after \(timeout); killed. It printed: \(output.suffix(2_000))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        // The pipe may still hold the last bytes; give the handler a moment to drain it.
        try await Task.sleep(for: .milliseconds(100))
        return (terminationStatus, output)
    }

    deinit {
        if isRunning {
            kill(processIdentifier, SIGKILL)
            var raw: Int32 = 0
            waitpid(processIdentifier, &raw, 0)
        }
    }
}

/// Output appended from the pipe's reading thread and read from tests.
final class CapturedOutput: Sendable {
    private let buffer = Mutex("")

    func append(_ data: Data) {
        buffer.withLock { $0 += String(decoding: data, as: UTF8.self) }
    }

    var text: String { buffer.withLock { $0 } }
}
