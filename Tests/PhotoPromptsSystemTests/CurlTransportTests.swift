import Foundation
import Logging
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptBackends
import ServiceLifecycle
import StubLLM
import Testing

extension SystemTests {
    @Suite("libcurl multi transport against a real stub-llm socket")
    struct CurlTransportTests {
        let transport = CurlTransport()

        func completionRequest(port: Int, timeout: Duration = .seconds(5)) -> HTTPTransportRequest {
            let body =
                #"{"model":"m","messages":[{"role":"system","content":"Write 6 questions."},{"role":"user","content":"<photo>\nlabels: dog\n</photo>"}]}"#
            return HTTPTransportRequest(
                method: "POST",
                url: "http://127.0.0.1:\(port)/v1/chat/completions",
                headers: [("Content-Type", "application/json")],
                body: Array(body.utf8),
                timeout: timeout
            )
        }

        @Test("A request returns status, lower-cased headers and the whole body")
        func roundTrip() async throws {
            try await withStubLLM { stub in
                let response = try await transport.send(completionRequest(port: stub.port))
                #expect(response.status == 200)
                #expect(response.headers["content-type"] == "application/json")
                let text = String(decoding: response.body, as: UTF8.self)
                #expect(text.contains("chat.completion"))
                #expect(text.contains("dog"))
                #expect(await stub.calls == 1)
            }
        }

        @Test("Sequential requests to one host reuse one connection")
        func connectionReuse() async throws {
            try await withStubLLM { stub in
                for _ in 0..<5 {
                    let response = try await transport.send(completionRequest(port: stub.port))
                    #expect(response.status == 200)
                }
                #expect(await stub.calls == 5)
                #expect(await stub.state.connections == 1)
            }
        }

        @Test("A refused connection fails as connectionFailed, not a timeout")
        func connectionRefused() async throws {
            let port = try await withStubLLM { $0.port }  // a port that was just closed
            await #expect {
                _ = try await transport.send(completionRequest(port: port))
            } throws: { ($0 as? HTTPTransportError)?.kind == .connectionFailed }
        }

        @Test("A host name that does not resolve fails as connectionFailed")
        func unresolvableHost() async throws {
            let request = HTTPTransportRequest(method: "GET", url: "http://a..b/", timeout: .seconds(5))
            await #expect {
                _ = try await transport.send(request)
            } throws: { ($0 as? HTTPTransportError)?.kind == .connectionFailed }
        }

        @Test("A server that accepts and stays silent times out at the transfer's budget", arguments: [StubBehaviour.hang, .trickle])
        func silentServerTimesOut(behaviour: StubBehaviour) async throws {
            try await withStubLLM(behaviour) { stub in
                let start = ContinuousClock.now
                await #expect {
                    _ = try await transport.send(completionRequest(port: stub.port, timeout: .milliseconds(500)))
                } throws: { ($0 as? HTTPTransportError)?.kind == .timedOut }
                #expect(ContinuousClock.now - start < .seconds(3), "the timeout must fire, not the server's hour-long hang")
            }
        }

        @Test("Cancelling the task removes the transfer at once")
        func cancellation() async throws {
            try await withStubLLM(.hang) { stub in
                let task = Task { try await transport.send(completionRequest(port: stub.port, timeout: .seconds(60))) }
                try await Task.sleep(for: .milliseconds(200))
                task.cancel()
                let start = ContinuousClock.now
                await #expect(throws: CancellationError.self) { try await task.value }
                #expect(ContinuousClock.now - start < .seconds(5))
            }
        }

        @Test("The loop is a lifecycle service: it serves while its group runs, stops at graceful shutdown, then fails a send at once")
        func stopsWithItsServiceGroup() async throws {
            try await withStubLLM { stub in
                let transport = CurlTransport()
                let group = ServiceGroup(
                    configuration: .init(services: [transport], gracefulShutdownSignals: [], logger: Logger(label: "test"))
                )
                let running = Task { try await group.run() }
                #expect(try await transport.send(completionRequest(port: stub.port)).status == 200)
                await group.triggerGracefulShutdown()
                try await running.value
                // Stopped, the loop takes no transfer: without the stop this call would be answered by the stub, and
                // without the refusal it would wait for a thread that has ended.
                let start = ContinuousClock.now
                await #expect(throws: CancellationError.self) { try await transport.send(completionRequest(port: stub.port)) }
                #expect(ContinuousClock.now - start < .seconds(1))
                #expect(await stub.calls == 1)
            }
        }

        @Test("Hundreds of slow transfers are in flight at once on one thread", .tags(.slow))
        func manyConcurrentTransfers() async throws {
            try await withStubLLM(latencyMilliseconds: 1500) { stub in
                let count = 200
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<count {
                        group.addTask { try await transport.send(completionRequest(port: stub.port, timeout: .seconds(60))).status }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                #expect(statuses == Array(repeating: 200, count: count))
                // Were they served one after another, the stub would never see more than a handful at once.
                #expect(await stub.state.maxInFlight >= count / 2)
            }
        }
    }
}
