import CCurl
import Foundation
import Synchronization

/// Drives one libcurl multi handle on a dedicated thread.
///
/// Every transfer of a ``CurlTransport`` runs on this one thread: it waits in `curl_multi_poll`, so hundreds of
/// slow transfers cost no threads and never block Swift's cooperative pool. Other threads only append to the
/// inbox and call `curl_multi_wakeup`, the one multi call libcurl allows from another thread.
package final class CurlMultiLoop: @unchecked Sendable {
    private struct Inbox {
        var additions: [CurlTransfer] = []
        var hasCancellations = false
        var isShuttingDown = false
    }

    private let multi: UnsafeMutableRawPointer
    private let inbox = Mutex(Inbox())
    private let stopped = DispatchSemaphore(value: 0)
    /// Transfers inside the multi handle, keyed by easy handle. Touched only on the loop thread.
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]

    package init() {
        Self.initialiseLibcurlOnce
        guard let multi = curl_multi_init() else { fatalError("curl_multi_init failed: out of memory") }
        self.multi = multi
        let thread = Thread { [self] in run() }
        thread.name = "photo-prompts.curl"
        thread.start()
    }

    /// Stops the loop, failing what still runs, frees the multi handle and ends the thread; later calls return at once.
    package func shutdown() {
        let isFirst = inbox.withLock { inbox in
            defer { inbox.isShuttingDown = true }
            return !inbox.isShuttingDown
        }
        guard isFirst else { return }
        curl_multi_wakeup(multi)
        stopped.wait()
    }

    /// Hands `transfer` to the loop thread; once the loop is stopping, fails it at once, as no thread would finish it.
    package func submit(_ transfer: CurlTransfer) {
        let isAccepted = inbox.withLock { inbox in
            guard !inbox.isShuttingDown else { return false }
            inbox.additions.append(transfer)
            return true
        }
        guard isAccepted else {
            transfer.finish(.failure(CancellationError()))
            return
        }
        curl_multi_wakeup(multi)
    }

    /// Asks the loop to drop every transfer marked cancelled.
    package func wakeForCancellation() {
        inbox.withLock { $0.hasCancellations = true }
        curl_multi_wakeup(multi)
    }

    private static let initialiseLibcurlOnce: Void = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }()

    private func run() {
        while true {
            let inbox = self.inbox.withLock { inbox in
                defer {
                    inbox.additions = []
                    inbox.hasCancellations = false
                }
                return inbox
            }
            if inbox.isShuttingDown {
                for transfer in inbox.additions { transfer.finish(.failure(CancellationError())) }
                for easy in Array(active.keys) { remove(easy, with: .failure(CancellationError())) }
                curl_multi_cleanup(multi)
                stopped.signal()
                return
            }
            for transfer in inbox.additions {
                if transfer.isCancelled {
                    transfer.finish(.failure(CancellationError()))
                } else {
                    active[transfer.easy] = transfer
                    curl_multi_add_handle(multi, transfer.easy)
                }
            }
            if inbox.hasCancellations {
                for (easy, transfer) in active where transfer.isCancelled {
                    remove(easy, with: .failure(CancellationError()))
                }
            }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            collectFinishedTransfers()
            // Sleeps until a socket is ready, a libcurl timer fires, or another thread calls curl_multi_wakeup.
            curl_multi_poll(multi, nil, 0, 1000, nil)
        }
    }

    private func collectFinishedTransfers() {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                let transfer = active[easy]
            else { continue }
            let outcome = transfer.outcome(for: message.pointee.data.result)
            remove(easy, with: outcome)
        }
    }

    private func remove(_ easy: UnsafeMutableRawPointer, with outcome: Result<HTTPTransportResponse, any Error>) {
        guard let transfer = active.removeValue(forKey: easy) else { return }
        curl_multi_remove_handle(multi, easy)
        transfer.finish(outcome)
    }
}
