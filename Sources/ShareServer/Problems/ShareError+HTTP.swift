import Hummingbird
import ShareKit

/// The one place domain errors become HTTP: each case's status, and its detail as a problem.
extension ShareError: HTTPResponseError {
    public var status: HTTPResponse.Status {
        switch self {
        case .invalidField, .invalidParameter, .malformedBody, .unreadablePicture: return .badRequest
        case .notFound, .noThumbnail, .noFile, .uploadNotFound, .hookNotFound, .deliveryNotFound: return .notFound
        case .unsupportedPicture: return .unsupportedMediaType
        case .idTaken, .uploadOffset, .tooManyHooks: return .conflict
        case .uploadTooLarge: return .contentTooLarge
        case .quotaExceeded: return .forbidden
        case .tooManyUploads: return .tooManyRequests
        case .busy, .picturesBusy, .uploadsBusy, .storeUnreachable, .objectStoreUnreachable: return .serviceUnavailable
        case .storageUnavailable: return .init(code: 507, reasonPhrase: "Insufficient Storage")
        }
    }

    /// What a client is told to wait while the database does not answer: about as long as a restart takes.
    static let unreachableRetrySeconds = 5

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let type = if case .quotaExceeded = self { "quota-exceeded" } else { "about:blank" }
        let headers: HTTPFields =
            switch self {
            case .busy(let seconds), .picturesBusy(let seconds), .uploadsBusy(let seconds): [.retryAfter: "\(seconds)"]
            case .uploadOffset(let held): [.uploadOffset: "\(held)", .tusResumable: TusProtocol.version]
            case .storeUnreachable, .objectStoreUnreachable: [.retryAfter: "\(Self.unreachableRetrySeconds)"]
            default: [:]
            }
        return try Problem(status, detail, type: type, headers: headers).response(from: request, context: context)
    }
}
