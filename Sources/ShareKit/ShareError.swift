import Foundation

/// What can go wrong with a request to the share history, in the user's terms.
///
/// The server maps each case to an HTTP status and a problem detail in one place.
public enum ShareError: Error, Equatable, Sendable {
    /// A request body field is missing or breaks its rule; `field` is its JSON name.
    case invalidField(_ field: String, _ reason: String)
    /// A query parameter has a value that cannot be used; `parameter` is its name.
    case invalidParameter(_ parameter: String, _ reason: String)
    /// The request body is not a JSON object.
    case malformedBody(_ reason: String)
    /// No record has this id (or it is in the trash and the request did not ask for trashed records).
    case notFound(id: String)
    /// The record with this id has no thumbnail.
    case noThumbnail(id: String)
    /// The share holds no file here (a record only, or one made on another service).
    case noFile(id: String)
    /// The picture sent for a thumbnail is in none of the formats thumbnails are made from.
    case unsupportedPicture(_ reason: String)
    /// The picture sent for a thumbnail is damaged, cut short, or too large to decode.
    case unreadablePicture(_ reason: String)
    /// A record with this id exists already.
    case idTaken(id: String)
    /// The change would take the history's live records past their quota (`quota` bytes, `used` of them held now).
    case quotaExceeded(quota: Int64, used: Decimal)
    /// Too many heavy reads (long searches, statistics, exports) wait already: try again after `retryAfterSeconds`.
    case busy(retryAfterSeconds: Int)
    /// The pictures being made into thumbnails hold all the memory decoding may take: try again after `retryAfterSeconds`.
    case picturesBusy(retryAfterSeconds: Int)
    /// Nothing can be written (the disk is full, the file system read-only); reads still work.
    case storageUnavailable(_ reason: String)
    /// The database server does not answer (it is down, restarting, or out of reach): nothing can be read or
    /// written until it is back, which the server notices by itself.
    case storeUnreachable(_ reason: String)
    /// The object store that keeps the files does not answer or refuses (`reason` names it): the request is not
    /// done, and nothing of it is kept.
    case objectStoreUnreachable(_ reason: String)
    /// This history has no upload with this id in progress (it finished, was dropped, or is another's).
    case uploadNotFound(id: String)
    /// An upload's bytes were sent from another offset than the `held` bytes it has.
    case uploadOffset(held: Int64)
    /// The file is larger than one upload may be (`max_upload_bytes`).
    case uploadTooLarge(limit: Int64)
    /// As many uploads as the server takes at once are in progress: try again after `retryAfterSeconds`.
    case uploadsBusy(retryAfterSeconds: Int)
    /// The history has `limit` uploads in progress already.
    case tooManyUploads(limit: Int)
    /// This history has no webhook with this id.
    case hookNotFound(id: String)
    /// This webhook has no delivery with this number.
    case deliveryNotFound(id: Int64)
    /// The history has `limit` webhooks already (`[hooks] max_per_user`).
    case tooManyHooks(limit: Int)
}

extension ShareError {
    /// The sentence a person reads, naming the field or parameter: a problem's `detail` on the server, the
    /// message of the same rule when the CLI applies it first.
    public var detail: String {
        switch self {
        case .invalidField(let field, let reason): return "field '\(field)' \(reason)"
        case .invalidParameter(let parameter, let reason): return "parameter '\(parameter)' \(reason)"
        case .malformedBody(let reason): return reason
        case .notFound(let id): return "no share with id '\(id)'"
        case .noThumbnail(let id): return "the share with id '\(id)' has no thumbnail"
        case .noFile(let id): return "the share with id '\(id)' holds no file here: it is a record only, or lives on another service"
        case .unsupportedPicture(let reason): return "the picture (the request body) \(reason)"
        case .unreadablePicture(let reason): return "the picture (the request body) \(reason)"
        case .idTaken(let id): return "a share with id '\(id)' exists already"
        case .quotaExceeded(let quota, let used):
            return "this would pass the quota of \(ByteSize.text(quota)) (\(quota) bytes): \(ByteSize.text(used)) (\(used) bytes) are used, "
                + "the trash's files and uploads under way included; delete shares for good or empty the trash to make room"
        case .busy(let seconds):
            return "too many long searches are running; try again in \(seconds) s (quick requests are answered meanwhile)"
        case .picturesBusy(let seconds):
            return "too many pictures are being made into thumbnails now; try again in \(seconds) s"
        case .storageUnavailable(let reason): return "nothing can be stored now: \(reason); reads still work"
        case .storeUnreachable(let reason): return "the database does not answer (\(reason)); try again shortly"
        case .objectStoreUnreachable(let reason): return "\(reason); try again shortly"
        case .uploadNotFound(let id): return "no upload in progress with id '\(id)'"
        case .uploadOffset(let held): return "the upload holds \(held) bytes: send the rest from there (Upload-Offset: \(held))"
        case .uploadTooLarge(let limit): return "a file may be at most \(limit) bytes (max_upload_bytes)"
        case .uploadsBusy(let seconds): return "too many uploads are in progress; try again in \(seconds) s"
        case .tooManyUploads(let limit):
            return "this history has \(limit) uploads in progress already: finish or abandon some (DELETE) before starting another"
        case .hookNotFound(let id): return "no webhook with id '\(id)'"
        case .deliveryNotFound(let id): return "no delivery \(id) of this webhook"
        case .tooManyHooks(let limit): return "this history has \(limit) webhooks already ([hooks] max_per_user): remove one first"
        }
    }
}
