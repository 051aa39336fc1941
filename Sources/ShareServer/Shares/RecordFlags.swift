import Hummingbird
import ShareKit

/// The flags a record's routes take (`?trashed=true`, `?purge=true`), read from the query string once.
struct RecordFlags {
    /// The record may be in the trash.
    var trashed = false
    /// Delete for good instead of moving to the trash.
    var purge = false

    init(_ request: Request) throws(ShareError) {
        for (name, value) in try FormEncoding.pairs(request.uri.query) {
            switch name {
            case "trashed": trashed = try BooleanParameter.parse(value, parameter: name)
            case "purge": purge = try BooleanParameter.parse(value, parameter: name)
            default: continue
            }
        }
    }
}
