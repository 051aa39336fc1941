/// The icon a share is drawn with, derived from its file name's extension; never chosen by a client.
public enum IconCategory: String, CaseIterable, Codable, Sendable {
    case image, pdf, doc, txt, ppt, xls, zip, audio, video, other

    /// The category for a file name, by its extension, case-insensitively (`Report.PDF` is `pdf`).
    ///
    /// A name with no extension, or a dot-file such as `.bashrc`, is `other`.
    public init(fileName: String) {
        self = FileName.fileExtension(of: fileName).flatMap { Self.byExtension[$0] } ?? .other
    }

    /// The category in words, as a person names such a file (the page's and the recipient's).
    public var words: String {
        switch self {
        case .image: return "Picture"
        case .pdf: return "PDF"
        case .doc: return "Document"
        case .txt: return "Text"
        case .ppt: return "Slides"
        case .xls: return "Spreadsheet"
        case .zip: return "Archive"
        case .audio: return "Audio"
        case .video: return "Video"
        case .other: return "File"
        }
    }

    /// An unknown category from a newer server reads as `other`, so old clients keep working.
    public init(from decoder: any Decoder) throws {
        self = IconCategory(rawValue: try decoder.singleValueContainer().decode(String.self)) ?? .other
    }

    private static let byExtension: [String: IconCategory] = {
        let table: [IconCategory: [String]] = [
            .image: ["png", "jpg", "jpeg", "bmp", "gif", "webp", "heic", "heif", "svg", "tif", "tiff", "ico", "avif"],
            .pdf: ["pdf"],
            .doc: ["doc", "docx", "odt", "rtf", "pages"],
            .txt: ["txt", "md", "markdown", "log"],
            .ppt: ["ppt", "pptx", "odp", "key"],
            .xls: ["xls", "xlsx", "ods", "csv", "tsv", "numbers"],
            .zip: ["zip", "tar", "gz", "tgz", "bz2", "xz", "7z", "rar", "zst"],
            .audio: ["mp3", "wav", "flac", "aac", "ogg", "oga", "m4a", "opus", "wma", "aiff", "mid", "midi"],
            .video: ["mp4", "mov", "avi", "mkv", "webm", "wmv", "flv", "m4v", "mpeg", "mpg", "3gp", "ogv"],
        ]
        var byExtension: [String: IconCategory] = [:]
        for (category, extensions) in table {
            for fileExtension in extensions { byExtension[fileExtension] = category }
        }
        return byExtension
    }()
}
