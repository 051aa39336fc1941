import CCurl
import Foundation

/// HTTP over libcurl. One handle serves every request of a command, so `--all` reuses its connection.
///
/// Only http and https are spoken, redirects are not followed (a moved server is reported, not silently
/// trusted), and a response is read into memory only up to `maxResponseBytes`. Connecting has a time limit,
/// and so has the whole exchange, except for streamed transfers, which may take long but must not stall:
/// so the CLI never hangs.
public final class CurlTransport: HTTPTransport {
    private let handle: UnsafeMutableRawPointer
    private let unixSocket: String?
    private let connectTimeoutMilliseconds: Int
    private let timeoutSeconds: Int
    private let maxResponseBytes: Int

    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// - Parameter timeoutSeconds: the longest a request may take, or a streamed transfer may go without moving.
    public init(
        unixSocket: String? = nil, connectTimeoutMilliseconds: Int = 5_000, timeoutSeconds: Int = 60,
        maxResponseBytes: Int = 16 * 1_048_576
    ) throws {
        Self.globalInit
        guard let handle = curl_easy_init() else { throw TransportError.failed(reason: "libcurl could not create a handle") }
        self.handle = handle
        self.unixSocket = unixSocket
        self.connectTimeoutMilliseconds = connectTimeoutMilliseconds
        self.timeoutSeconds = timeoutSeconds
        self.maxResponseBytes = maxResponseBytes
    }

    deinit {
        curl_easy_cleanup(handle)
    }

    public func send(_ request: HTTPRequest, sink: (([UInt8]) -> Void)?) throws(TransportError) -> HTTPResponse {
        // Reset forgets the previous request's options but keeps the connection for reuse.
        curl_easy_reset(handle)
        let collector = ResponseCollector(sink: sink, maxBytes: maxResponseBytes)
        // The server's work on a whole body (an import of millions) is waited for far longer than a stall.
        let watch = request.upload.map { UploadWatch($0, stallLimit: .seconds(timeoutSeconds), workLimit: .seconds(max(3600, 60 * timeoutSeconds))) }
        let headerList = Self.headerList(for: request)
        defer { curl_slist_free_all(headerList) }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code = errorBuffer.withUnsafeMutableBufferPointer { errorPointer -> CURLcode in
            setConnection(url: request.url, streamed: sink != nil || request.upload != nil, errorBuffer: errorPointer.baseAddress)
            setMethodAndBody(request)
            if let rate = request.rateLimit {
                share_curl_setopt_off_t(handle, CURLOPT_MAX_SEND_SPEED_LARGE, curl_off_t(rate))
                share_curl_setopt_off_t(handle, CURLOPT_MAX_RECV_SPEED_LARGE, curl_off_t(rate))
            }
            // A HEAD reads no body, whatever length it announces.
            if sink == nil && request.method != "HEAD" { share_curl_setopt_off_t(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(maxResponseBytes)) }
            setCallbacks(collector, headers: headerList)
            if let watch { watchUpload(watch) }
            return withExtendedLifetime((request.upload, watch)) { curl_easy_perform(handle) }
        }
        if code == CURLE_ABORTED_BY_CALLBACK, let reason = watch?.ended { throw .noAnswer(reason: reason) }
        guard code == CURLE_OK else {
            let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw failure(code, detail: detail, overflowed: collector.overflowed)
        }
        var status = 0
        share_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return HTTPResponse(status: status, headers: collector.headers, body: collector.body)
    }

    /// The request's headers, with `Expect: 100-continue` turned off and chunked framing for uploads of unknown size.
    private static func headerList(for request: HTTPRequest) -> UnsafeMutablePointer<curl_slist>? {
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            list = curl_slist_append(list, "\(name): \(value)")
        }
        list = curl_slist_append(list, "Expect:")
        if let upload = request.upload, upload.size == nil {
            list = curl_slist_append(list, "Transfer-Encoding: chunked")
        }
        return list
    }

    /// Where to connect, over which protocols, and for how long.
    private func setConnection(url: String, streamed: Bool, errorBuffer: UnsafeMutablePointer<CChar>?) {
        share_curl_setopt_string(handle, CURLOPT_URL, url)
        // Whatever URL reaches libcurl, it speaks only HTTP: never file:, gopher: or the like, redirects included.
        share_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        share_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        share_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
        share_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        share_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, connectTimeoutMilliseconds)
        if streamed {
            // Less than a byte a second for that long is a stall (an upload's watch says when it is one).
            share_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1)
            share_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, timeoutSeconds)
        } else {
            share_curl_setopt_long(handle, CURLOPT_TIMEOUT, timeoutSeconds)
        }
        share_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
        if let unixSocket { share_curl_setopt_string(handle, CURLOPT_UNIX_SOCKET_PATH, unixSocket) }
    }

    /// An upload is judged by its `UploadWatch` rather than by speed alone: the server may work long on a whole body.
    private func watchUpload(_ watch: UploadWatch) {
        share_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 0)
        share_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
        share_curl_setopt_progress(handle, UploadWatch.callback)
        share_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, Unmanaged.passUnretained(watch).toOpaque())
        share_curl_setopt_long(handle, CURLOPT_TCP_KEEPALIVE, 1)
        share_curl_setopt_long(handle, CURLOPT_TCP_KEEPIDLE, 30)
        share_curl_setopt_long(handle, CURLOPT_TCP_KEEPINTVL, 15)
    }

    private func setMethodAndBody(_ request: HTTPRequest) {
        switch request.method {
        case "GET": share_curl_setopt_long(handle, CURLOPT_HTTPGET, 1)
        case "POST": share_curl_setopt_long(handle, CURLOPT_POST, 1)
        case "HEAD": share_curl_setopt_long(handle, CURLOPT_NOBODY, 1)
        default: share_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method)
        }
        if let upload = request.upload {
            // libcurl reads a body from the callback for a POST: another method (a PUT) keeps its name, sent as
            // CUSTOMREQUEST, and has its body sent the same way.
            share_curl_setopt_long(handle, CURLOPT_POST, 1)
            share_curl_setopt_callback(handle, CURLOPT_READFUNCTION, UploadSource.supply)
            share_curl_setopt_pointer(handle, CURLOPT_READDATA, Unmanaged.passUnretained(upload).toOpaque())
            if let size = upload.size { share_curl_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(size)) }
        } else if request.body != nil || request.method == "POST" {
            let body = request.body ?? Data()
            share_curl_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            // COPYPOSTFIELDS copies the bytes, so they need not outlive this call.
            if body.isEmpty {
                share_curl_setopt_string(handle, CURLOPT_COPYPOSTFIELDS, "")
            } else {
                body.withUnsafeBytes { bytes in
                    _ = share_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress!))
                }
            }
        }
    }

    private func setCallbacks(_ collector: ResponseCollector, headers: UnsafeMutablePointer<curl_slist>?) {
        let context = Unmanaged.passUnretained(collector).toOpaque()
        share_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headers)
        share_curl_setopt_callback(handle, CURLOPT_WRITEFUNCTION, ResponseCollector.collectBody)
        share_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        share_curl_setopt_callback(handle, CURLOPT_HEADERFUNCTION, ResponseCollector.collectHeader)
        share_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
    }

    /// What a failed transfer means to the user: nothing answered, no answer in time, too much, or another failure.
    private func failure(_ code: CURLcode, detail: String, overflowed: Bool) -> TransportError {
        if overflowed || code == CURLE_FILESIZE_EXCEEDED { return .tooLarge(limit: maxResponseBytes) }
        let reason = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        switch code {
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .unreachable(reason: reason)
        case CURLE_OUT_OF_MEMORY:
            // What libcurl says of a response header over its limit (100 kB): the server's doing, not this machine's.
            return .failed(reason: "the response's headers are larger than share accepts (100 kB)")
        case CURLE_OPERATION_TIMEDOUT:
            // Time before the request could be sent is zero when no connection was made (nor reused).
            var pretransfer: curl_off_t = 0
            share_curl_getinfo_off_t(handle, CURLINFO_PRETRANSFER_TIME_T, &pretransfer)
            return pretransfer > 0 ? .noAnswer(reason: reason) : .unreachable(reason: reason)
        default:
            return .failed(reason: reason)
        }
    }
}

extension UploadSource {
    /// libcurl asks for the next piece of the body; `CURL_READFUNC_ABORT` when the file cannot be read.
    static let supply: share_curl_data_callback = { buffer, size, count, context in
        let source = Unmanaged<UploadSource>.fromOpaque(context!).takeUnretainedValue()
        return source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count)) ?? Int(CURL_READFUNC_ABORT)
    }
}

/// Receives what libcurl reads, through C callbacks that find it again from their context pointer. What it keeps
/// in memory (headers, and a body not streamed to the sink) is bounded: past `maxBytes` the transfer is stopped.
private final class ResponseCollector {
    var body = Data()
    var headers: [String: String] = [:]
    /// The status of the response being received, from its status line.
    var status = 0
    let sink: (([UInt8]) -> Void)?
    let maxBytes: Int
    private var headerBytes = 0
    /// The response went past `maxBytes`, and was abandoned.
    private(set) var overflowed = false

    init(sink: (([UInt8]) -> Void)?, maxBytes: Int) {
        self.sink = sink
        self.maxBytes = maxBytes
    }

    /// Returning fewer bytes than given makes libcurl stop the transfer.
    static let collectBody: share_curl_data_callback = { data, size, count, context in
        let collector = Unmanaged<ResponseCollector>.fromOpaque(context!).takeUnretainedValue()
        guard let data else { return size * count }
        let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
        if let sink = collector.sink, (200..<300).contains(collector.status) {
            sink(Array(bytes))
        } else {
            guard collector.body.count + bytes.count <= collector.maxBytes else {
                collector.overflowed = true
                return 0
            }
            collector.body.append(contentsOf: bytes)
        }
        return size * count
    }

    static let collectHeader: share_curl_data_callback = { data, size, count, context in
        let collector = Unmanaged<ResponseCollector>.fromOpaque(context!).takeUnretainedValue()
        guard let data else { return 0 }
        collector.headerBytes += size * count
        guard collector.headerBytes <= collector.maxBytes else {
            collector.overflowed = true
            return 0
        }
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: size * count), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            collector.headers = [:]  // a new status line (after 100 Continue) starts a new header block
            collector.status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].lowercased()
            collector.headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return size * count
    }
}
