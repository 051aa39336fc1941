import NIOHTTP1

extension HTTPParserError {
    /// What was wrong with the bytes a client sent, for the detail of its 400.
    var problemDetail: String {
        switch self {
        case .headerOverflow:
            return "the request line and headers are larger than the server accepts (80 KiB)"
        case .invalidChunkSize:
            return "the chunked body has a chunk size that is not a hexadecimal number in range"
        case .invalidEOFState, .closedConnection:
            return "the connection ended before the request was complete"
        case .invalidContentLength, .unexpectedContentLength:
            return "the Content-Length header is not a valid length for this request"
        case .invalidURL, .invalidPath, .invalidQueryString, .invalidFragment, .invalidHost, .invalidPort:
            return "the request target is not a valid URL"
        case .invalidMethod:
            return "the request method is not valid"
        case .invalidVersion:
            return "the request is not HTTP/1.0 or HTTP/1.1"
        case .invalidHeaderToken, .invalidCharactersUsed:
            return "a header of the request is malformed"
        default:
            return "the request is not valid HTTP/1.1: its framing (line ends, chunks, Transfer-Encoding) is malformed"
        }
    }
}
