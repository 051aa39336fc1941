import CCurl
import Foundation

/// HTTP over libcurl. One handle serves every request of a command, so `--all` reuses its connection.
///
/// Redirects are not followed (a moved server is reported, not silently trusted). Connecting has a time limit,
/// and so has the whole exchange, except for streamed transfers, which may take long but must not stall:
/// so the CLI never hangs.
public final class CurlTransport: HTTPTransport {
    private let handle: UnsafeMutableRawPointer
    private let unixSocket: String?
    private let connectTimeoutMilliseconds: Int
    private let totalTimeoutMilliseconds: Int

    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    public init(unixSocket: String? = nil, connectTimeoutMilliseconds: Int = 5_000, totalTimeoutMilliseconds: Int = 60_000) throws {
        Self.globalInit
        guard let handle = curl_easy_init() else { throw TransportError.failed(reason: "libcurl could not create a handle") }
        self.handle = handle
        self.unixSocket = unixSocket
        self.connectTimeoutMilliseconds = connectTimeoutMilliseconds
        self.totalTimeoutMilliseconds = totalTimeoutMilliseconds
    }

    deinit {
        curl_easy_cleanup(handle)
    }

    /// A streamed transfer fails when it moves less than a byte a second for this long.
    static let stallSeconds = 60

    public func send(_ request: HTTPRequest, sink: (([UInt8]) -> Void)?) throws(TransportError) -> HTTPResponse {
        // Reset forgets the previous request's options but keeps the connection for reuse.
        curl_easy_reset(handle)
        let collector = ResponseCollector(sink: sink)
        let context = Unmanaged.passUnretained(collector).toOpaque()
        let streamed = sink != nil || request.upload != nil
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            headerList = curl_slist_append(headerList, "\(name): \(value)")
        }
        headerList = curl_slist_append(headerList, "Expect:")
        if let upload = request.upload, upload.size == nil {
            headerList = curl_slist_append(headerList, "Transfer-Encoding: chunked")
        }

        let code = errorBuffer.withUnsafeMutableBufferPointer { errorPointer -> CURLcode in
            share_curl_setopt_string(handle, CURLOPT_URL, request.url)
            share_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
            share_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
            share_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, connectTimeoutMilliseconds)
            if streamed {
                share_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1)
                share_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, Self.stallSeconds)
            } else {
                share_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, totalTimeoutMilliseconds)
            }
            share_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorPointer.baseAddress)
            if let unixSocket { share_curl_setopt_string(handle, CURLOPT_UNIX_SOCKET_PATH, unixSocket) }
            switch request.method {
            case "GET": share_curl_setopt_long(handle, CURLOPT_HTTPGET, 1)
            case "POST": share_curl_setopt_long(handle, CURLOPT_POST, 1)
            default: share_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method)
            }
            if let upload = request.upload {
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
            share_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList)
            share_curl_setopt_callback(handle, CURLOPT_WRITEFUNCTION, ResponseCollector.collectBody)
            share_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
            share_curl_setopt_callback(handle, CURLOPT_HEADERFUNCTION, ResponseCollector.collectHeader)
            share_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
            return withExtendedLifetime(request.upload) { curl_easy_perform(handle) }
        }
        guard code == CURLE_OK else {
            let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let reason = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
            switch code {
            case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: throw .unreachable(reason: reason)
            case CURLE_OPERATION_TIMEDOUT: throw .timedOut(reason: reason)
            default: throw .failed(reason: reason)
            }
        }
        var status = 0
        share_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return HTTPResponse(status: status, headers: collector.headers, body: collector.body)
    }
}

extension UploadSource {
    /// libcurl asks for the next piece of the body; `CURL_READFUNC_ABORT` when the file cannot be read.
    static let supply: share_curl_data_callback = { buffer, size, count, context in
        let source = Unmanaged<UploadSource>.fromOpaque(context!).takeUnretainedValue()
        return source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count)) ?? Int(CURL_READFUNC_ABORT)
    }
}

/// Receives what libcurl reads, through C callbacks that find it again from their context pointer.
private final class ResponseCollector {
    var body = Data()
    var headers: [String: String] = [:]
    /// The status of the response being received, from its status line.
    var status = 0
    let sink: (([UInt8]) -> Void)?

    init(sink: (([UInt8]) -> Void)?) {
        self.sink = sink
    }

    static let collectBody: share_curl_data_callback = { data, size, count, context in
        let collector = Unmanaged<ResponseCollector>.fromOpaque(context!).takeUnretainedValue()
        guard let data else { return size * count }
        let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
        if let sink = collector.sink, (200..<300).contains(collector.status) {
            sink(Array(bytes))
        } else {
            collector.body.append(contentsOf: bytes)
        }
        return size * count
    }

    static let collectHeader: share_curl_data_callback = { data, size, count, context in
        let collector = Unmanaged<ResponseCollector>.fromOpaque(context!).takeUnretainedValue()
        guard let data else { return 0 }
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
