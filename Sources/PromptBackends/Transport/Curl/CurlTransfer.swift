import CCurl
import Foundation
import Synchronization

/// One libcurl easy handle with the state its callbacks fill in. Created on the caller's task, then owned by the
/// ``CurlMultiLoop`` thread until it finishes; only the cancellation flag and the continuation, both guarded, are
/// touched from both sides.
package final class CurlTransfer: @unchecked Sendable {
    /// Bodies larger than this are refused: an LLM answer is a few kilobytes, anything bigger is a fault.
    package static let maximumResponseBytes = 4 * 1024 * 1024

    package let easy: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private(set) var responseBody: [UInt8] = []
    private(set) var responseHeaders: [String: String] = [:]
    private(set) var bodyTooLarge = false
    private let continuation = Mutex<CheckedContinuation<HTTPTransportResponse, any Error>?>(nil)
    private let cancelled = Mutex(false)
    private let onBodyChunk: (@Sendable (UnsafeRawBufferPointer) -> Void)?

    package init(request: HTTPTransportRequest) throws(HTTPTransportError) {
        guard let easy = curl_easy_init() else {
            throw HTTPTransportError(kind: .other, detail: "curl_easy_init failed")
        }
        self.easy = easy
        self.onBodyChunk = request.onBodyChunk
        let timeoutMilliseconds = max(
            1,
            Int(request.timeout.components.seconds * 1000 + request.timeout.components.attoseconds / 1_000_000_000_000_000)
        )
        photoprompts_curl_easy_setopt_string(easy, CURLOPT_URL, request.url)
        photoprompts_curl_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        photoprompts_curl_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, request.method)
        // Signals are not thread-safe; the timeout must come from the multi loop, not SIGALRM.
        photoprompts_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        photoprompts_curl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, timeoutMilliseconds)
        photoprompts_curl_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0)
        for header in request.headers {
            headerList = curl_slist_append(headerList, "\(header.name): \(header.value)")
        }
        // Without this libcurl adds "Expect: 100-continue" to larger POSTs and waits a second for it.
        headerList = curl_slist_append(headerList, "Expect:")
        photoprompts_curl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList)
        if let body = request.body {
            photoprompts_curl_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            body.withUnsafeBytes { bytes in
                // COPYPOSTFIELDS copies, so the Swift array need not outlive this call.
                _ = photoprompts_curl_easy_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
            }
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        photoprompts_curl_easy_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION, curlTransferWriteBody)
        photoprompts_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
        photoprompts_curl_easy_setopt_write_callback(easy, CURLOPT_HEADERFUNCTION, curlTransferWriteHeader)
        photoprompts_curl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, context)
    }

    deinit {
        curl_easy_cleanup(easy)
        curl_slist_free_all(headerList)
    }

    package func setContinuation(_ continuation: CheckedContinuation<HTTPTransportResponse, any Error>) {
        self.continuation.withLock { $0 = continuation }
    }

    /// Marks the transfer as cancelled; the loop removes it on its next turn.
    package func markCancelled() { cancelled.withLock { $0 = true } }

    package var isCancelled: Bool { cancelled.withLock { $0 } }

    /// Resumes the waiting task exactly once; later calls are ignored.
    package func finish(_ result: Result<HTTPTransportResponse, any Error>) {
        let continuation = self.continuation.withLock { value in
            defer { value = nil }
            return value
        }
        continuation?.resume(with: result)
    }

    package func outcome(for code: CURLcode) -> Result<HTTPTransportResponse, any Error> {
        guard code == CURLE_OK else { return .failure(Self.error(for: code, bodyTooLarge: bodyTooLarge)) }
        var status = 0
        photoprompts_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        return .success(HTTPTransportResponse(status: status, headers: responseHeaders, body: responseBody))
    }

    fileprivate func appendBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard responseBody.count + bytes.count <= Self.maximumResponseBytes else {
            bodyTooLarge = true
            return false
        }
        responseBody.append(contentsOf: bytes)
        onBodyChunk?(bytes)
        return true
    }

    fileprivate func appendHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        // Split at the first colon and trimmed of ASCII whitespace. Header names are ASCII; values are decoded as UTF-8.
        let line = trimmedASCIIWhitespace(bytes, bytes.indices)
        if bytes[line].starts(with: "HTTP/".utf8) {
            // A new status line (after a 100 Continue, say) starts a new header block.
            responseHeaders = [:]
        } else if let colon = bytes[line].firstIndex(of: UInt8(ascii: ":")) {
            let name = String(decoding: bytes[line.lowerBound..<colon], as: UTF8.self).lowercased()
            let value = String(decoding: bytes[trimmedASCIIWhitespace(bytes, (colon + 1)..<line.upperBound)], as: UTF8.self)
            responseHeaders[name] = value
        }
    }

    private static func error(for code: CURLcode, bodyTooLarge: Bool) -> HTTPTransportError {
        let detail = String(cString: curl_easy_strerror(code))
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return HTTPTransportError(kind: .timedOut, detail: detail)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT:
            return HTTPTransportError(kind: .connectionFailed, detail: detail)
        case CURLE_WRITE_ERROR where bodyTooLarge:
            return HTTPTransportError(kind: .responseTooLarge, detail: "response body over \(maximumResponseBytes) bytes")
        default:
            return HTTPTransportError(kind: .other, detail: detail)
        }
    }
}

/// libcurl's body callback: returning less than `size * count` aborts the transfer.
private func curlTransferWriteBody(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    return transfer.appendBody(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

/// libcurl's header callback, called once per header line.
private func curlTransferWriteHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    transfer.appendHeaderLine(UnsafeRawBufferPointer(start: data, count: length))
    return length
}

/// The part of `bytes[range]` without leading and trailing spaces, tabs, CRs and LFs.
private func trimmedASCIIWhitespace(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Range<Int> {
    let isWhitespace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
    var lower = range.lowerBound
    var upper = range.upperBound
    while lower < upper, isWhitespace(bytes[lower]) { lower += 1 }
    while upper > lower, isWhitespace(bytes[upper - 1]) { upper -= 1 }
    return lower..<upper
}
