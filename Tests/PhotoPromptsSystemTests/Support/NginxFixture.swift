import Foundation
import PhotoPromptsTestSupport
import Testing

/// nginx (Debian's package) as a round-robin load balancer in front of service instances, on a loopback port,
/// with its configuration, logs and temporary files in a folder of its own.
struct NginxFixture: Sendable {
    let process: ChildProcess
    let port: Int
    let folder: URL

    /// Where nginx is, if installed (`make test` installs it).
    static var executable: URL? {
        ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"].map(URL.init(fileURLWithPath:))
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    static let notInstalled = "nginx: not installed, so the two-instance tests cannot run (make test installs it)"

    /// Starts nginx in front of `upstreamPorts`. A request that cannot reach one instance (connection refused)
    /// goes to the next, as in a real deployment; one the instance accepted is never sent twice.
    static func start(upstreamPorts: [Int]) async throws -> NginxFixture {
        guard let executable else { try MissingDependency.skipOrFail(notInstalled) }
        let folder = scratchPath("nginx")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let port = try freeLoopbackPort()
        let servers = upstreamPorts.map { "server 127.0.0.1:\($0) max_fails=1 fail_timeout=30s;" }.joined(separator: "\n        ")
        let configuration = """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(folder.path)/nginx.pid;
            error_log \(folder.path)/error.log warn;
            events { worker_connections 1024; }
            http {
                access_log off;
                client_body_temp_path \(folder.path)/body;
                proxy_temp_path \(folder.path)/proxy;
                fastcgi_temp_path \(folder.path)/fastcgi;
                uwsgi_temp_path \(folder.path)/uwsgi;
                scgi_temp_path \(folder.path)/scgi;
                upstream photo_prompts {
                    \(servers)
                    keepalive 32;
                }
                server {
                    listen 127.0.0.1:\(port);
                    location / {
                        proxy_pass http://photo_prompts;
                        proxy_http_version 1.1;
                        proxy_set_header Connection "";
                        proxy_next_upstream error timeout;
                        proxy_read_timeout 30s;
                    }
                }
            }
            """
        let configurationFile = folder.appendingPathComponent("nginx.conf")
        try configuration.write(to: configurationFile, atomically: true, encoding: .utf8)
        let process = try ChildProcess(executable, arguments: ["-p", folder.path, "-c", configurationFile.path, "-e", "\(folder.path)/error.log"])
        let fixture = NginxFixture(process: process, port: port, folder: folder)
        try await fixture.waitUntilListening()
        return fixture
    }

    private func waitUntilListening() async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if (try? await ServiceClient(port: port).send("GET", "/healthz").status) == 200 { return }
            guard process.isRunning else { throw FixtureError("nginx exited: \(process.output)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw FixtureError("nginx did not answer on \(port): \(process.output)")
    }

    func stop() async throws {
        // SIGKILL, not SIGTERM: a child of the test process inherits its blocked signals, and nginx in single-process
        // mode never unblocks them. Being the only process (master_process off), it leaves nothing behind.
        kill(process.processIdentifier, SIGKILL)
        _ = try await process.waitForExit()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// A port nothing listens on right now, for servers that cannot be told to pick their own (nginx).
func freeLoopbackPort() throws -> Int {
    let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw FixtureError("socket() failed") }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
    }
    guard bound else { throw FixtureError("bind() failed") }
    return Int(UInt16(bigEndian: address.sin_port))
}
