import Foundation
import HTTPTypes
import ShareHistory
import ShareKit

/// tus 1.0, the resumable upload protocol `POST /share/uploads` speaks: its version, headers and extensions.
enum TusProtocol {
    static let version = "1.0.0"
    static let extensions = "creation,creation-with-upload,termination,expiration"
    /// The only type a body of bytes is declared as.
    static let mediaType = "application/offset+octet-stream"

    /// Refuses a request that does not say it speaks tus (400), or speaks another version of it (412, naming the one
    /// spoken).
    static func requireVersion(_ headers: HTTPFields) throws {
        guard let spoken = headers[.tusResumable] else {
            throw ShareError.invalidField("Tus-Resumable", "is required: send Tus-Resumable: \(version)")
        }
        guard spoken == version else {
            throw Problem(
                .preconditionFailed, "this server speaks tus \(version): send Tus-Resumable: \(version)",
                headers: [.tusVersion: version, .tusResumable: version])
        }
    }

    /// A whole number of bytes from the header `name`; a 400 naming it otherwise.
    static func bytes(_ headers: HTTPFields, _ name: HTTPField.Name) throws(ShareError) -> Int64 {
        guard let text = headers[name] else { throw .invalidField(name.rawName, "is required") }
        guard let value = Int64(clientDigits: text) else {
            throw .invalidField(name.rawName, "must be a whole number of bytes, got '\(text.prefix(40))'")
        }
        return value
    }

    /// The headers every answer about an upload carries.
    static func headers(_ status: UploadStatus) -> HTTPFields {
        [
            .tusResumable: version, .uploadOffset: "\(status.offset)", .uploadLength: "\(status.length)",
            .uploadExpires: httpDate(status.expiresAt), .cacheControl: "no-store",
        ]
    }

    /// An HTTP date (RFC 9110's IMF-fixdate), as `Upload-Expires` is written.
    static func httpDate(_ time: Timestamp) -> String {
        let date = Date(timeIntervalSince1970: Double(time.millisecondsSinceEpoch / 1000))
        return date.formatted(
            Date.VerbatimFormatStyle(
                format:
                    "\(weekday: .abbreviated), \(day: .twoDigits) \(month: .abbreviated) \(year: .defaultDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits) GMT",
                locale: Locale(identifier: "en_US_POSIX"), timeZone: .gmt, calendar: Calendar(identifier: .gregorian)))
    }
}

extension HTTPField.Name {
    static let tusResumable = Self("Tus-Resumable")!
    static let tusVersion = Self("Tus-Version")!
    static let tusExtension = Self("Tus-Extension")!
    static let tusMaxSize = Self("Tus-Max-Size")!
    static let uploadOffset = Self("Upload-Offset")!
    static let uploadLength = Self("Upload-Length")!
    static let uploadMetadata = Self("Upload-Metadata")!
    static let uploadExpires = Self("Upload-Expires")!
    static let uploadDeferLength = Self("Upload-Defer-Length")!
}
