/// What a link's page shows of a share's file before it is downloaded, by the file's name and size: never by what
/// a client says it is. Only files the service holds are previewed; a player only while downloads are not counted
/// against a limit, since it streams the whole file uncounted.
public enum PreviewKind: Sendable, Equatable {
    /// A picture at most 1280 pixels on a side, made from the file.
    case picture
    /// A PDF's first page as a picture.
    case firstPage
    /// The first 64 KiB of a text, as text.
    case text
    /// A player streaming the file, sent to it with its media type.
    case video(mediaType: String)
    case audio(mediaType: String)

    /// The most of a text a page shows.
    public static let textBytes = 65_536

    /// The preview of a file named `name` of `size` bytes; `pictureBytes`: the largest file a picture is made from
    /// (`[server] max_picture_bytes`); `limited`: its downloads are counted against a limit.
    public init?(name: String, size: Int64, pictureBytes: Int, limited: Bool) {
        guard let fileExtension = FileName.fileExtension(of: name), size > 0 else { return nil }
        if PictureFile.mediaType(ofFileName: name) != nil {
            guard size <= pictureBytes else { return nil }
            self = .picture
        } else if fileExtension == "pdf" {
            guard size <= pictureBytes else { return nil }
            self = .firstPage
        } else if IconCategory(fileName: name) == .txt {
            self = .text
        } else if let type = Self.videoTypes[fileExtension], !limited {
            self = .video(mediaType: type)
        } else if let type = Self.audioTypes[fileExtension], !limited {
            self = .audio(mediaType: type)
        } else {
            return nil
        }
    }

    /// The media type a player is sent the file as.
    public var mediaType: String? {
        switch self {
        case .video(let type), .audio(let type): return type
        case .picture, .firstPage, .text: return nil
        }
    }

    /// Formats browsers play, by extension.
    private static let videoTypes = ["mp4": "video/mp4", "m4v": "video/mp4", "mov": "video/quicktime", "webm": "video/webm", "ogv": "video/ogg"]
    private static let audioTypes = [
        "mp3": "audio/mpeg", "m4a": "audio/mp4", "aac": "audio/aac", "ogg": "audio/ogg", "oga": "audio/ogg", "opus": "audio/ogg",
        "wav": "audio/wav", "flac": "audio/flac",
    ]
}
