/// Where a share made on another service lives: its link leads there.
public enum ShareSource {
    /// `url`, checked: an `https` URL of at most 2048 bytes, with a host and no spaces or control characters.
    public static func validate(_ url: String) throws(ShareError) -> String {
        let rest = url.utf8.dropFirst("https://".utf8.count)
        guard url.hasPrefix("https://"), url.utf8.count <= 2048, let host = rest.split(separator: UInt8(ascii: "/")).first,
            !host.isEmpty, url.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F })
        else { throw .invalidField("source", "must be an https:// URL of at most 2048 bytes, such as https://drive.example.com/s/abc") }
        return url
    }
}
