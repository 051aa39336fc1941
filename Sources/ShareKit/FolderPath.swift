/// Folders records are moved into: absolute, `/`-separated paths such as `/reports/2021`.
public enum FolderPath {
    public static let root = "/"
    public static let maxBytes = 4096

    /// Normalises `raw` (`//reports/2021/` becomes `/reports/2021`) and checks each segment with the name rules.
    public static func normalize(_ raw: String, field: String = "folder") throws(ShareError) -> String {
        guard raw.hasPrefix("/") else { throw .invalidField(field, "must be an absolute path starting with '/'") }
        var segments: [String] = []
        for segment in raw.split(separator: "/") {
            do {
                segments.append(try FileName.validate(String(segment), field: field))
            } catch .invalidField(_, let reason) {
                throw .invalidField(field, "has a segment '\(segment)' that \(reason)")
            }
        }
        let path = "/" + segments.joined(separator: "/")
        guard path.utf8.count <= maxBytes else { throw .invalidField(field, "must be at most \(maxBytes) bytes long") }
        return path
    }

    /// The prefix every descendant of `folder` starts with (`/reports/`), for recursive listings.
    public static func descendantPrefix(of folder: String) -> String {
        folder == root ? root : folder + "/"
    }

    /// Where the descendants of `folder` end, in byte order: its prefix with the last '/' as '0', which follows it
    /// ("/a/" up to, not including, "/a0"). Stores read the descendants as the range from the prefix to this.
    public static func descendantsEnd(of folder: String) -> String {
        String(descendantPrefix(of: folder).dropLast()) + "0"
    }
}
