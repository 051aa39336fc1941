import Foundation

/// One file of a share that holds several (a record's `files`): its path inside the share (`/`-separated segments,
/// each following the rules of a file name, as a folder shared whole keeps its tree), its size, and its icon.
public struct BundleFile: Codable, Hashable, Sendable {
    public var name: String
    public var size: Int64
    public var type: IconCategory

    public init(name: String, size: Int64) {
        self.name = name
        self.size = size
        type = IconCategory(fileName: Self.lastSegment(of: name))
    }

    /// The last segment of its path: the name it is saved under when downloaded alone.
    public var baseName: String { Self.lastSegment(of: name) }

    private static func lastSegment(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}

/// The rules the files of one share follow, so that any unzipping tool extracts them as they were sent, and nowhere
/// else: relative paths of valid names, none twice, none both a file and a folder.
public enum BundleFiles {
    /// A share holds at most this many files.
    public static let maxFiles = 100_000
    /// A path inside a share is at most this many bytes of UTF-8.
    public static let maxPathBytes = 1024

    /// The files as given (`files[i].name`, `files[i].size`), their paths NFC-normalised, or the first rule broken,
    /// naming its field.
    public static func validate(_ given: [(name: String?, size: Int64?)]) throws(ShareError) -> [BundleFile] {
        guard !given.isEmpty else { throw .invalidField("files", "must list at least one file") }
        guard given.count <= maxFiles else { throw .invalidField("files", "lists \(given.count) files; at most \(maxFiles) are allowed") }
        var files: [BundleFile] = []
        var paths = Set<String>()
        var folders = Set<String>()
        var total: Int64 = 0
        for (index, file) in given.enumerated() {
            let field = "files[\(index)]"
            guard let raw = file.name else { throw .invalidField("\(field).name", "is required") }
            let path = try self.path(raw, field: "\(field).name")
            guard let size = file.size else { throw .invalidField("\(field).size", "is required") }
            guard size >= 0 else { throw .invalidField("\(field).size", "must be 0 or more bytes") }
            let (sum, overflow) = total.addingReportingOverflow(size)
            guard !overflow else { throw .invalidField("files", "add up to more bytes than a share may hold") }
            total = sum
            guard paths.insert(path).inserted else { throw .invalidField("\(field).name", "'\(path)' is listed twice") }
            let segments = path.split(separator: "/")
            for end in 1..<segments.count { folders.insert(segments[..<end].joined(separator: "/")) }
            files.append(BundleFile(name: path, size: size))
        }
        if let clash = files.first(where: { folders.contains($0.name) }) {
            throw .invalidField("files", "'\(clash.name)' is both a file and a folder")
        }
        return files
    }

    /// A relative path: segments that are each a valid file name, joined by single slashes.
    static func path(_ raw: String, field: String) throws(ShareError) -> String {
        let segments = raw.split(separator: "/", omittingEmptySubsequences: false)
        guard !raw.hasPrefix("/"), !segments.contains(where: \.isEmpty) else {
            throw .invalidField(field, "must be a relative path: names joined by single '/', none empty")
        }
        var names: [String] = []
        for segment in segments { names.append(try FileName.validate(String(segment), field: field)) }
        let path = names.joined(separator: "/")
        guard path.utf8.count <= maxPathBytes else {
            throw .invalidField(field, "is \(path.utf8.count) bytes of UTF-8; at most \(maxPathBytes) are allowed")
        }
        return path
    }
}

extension BundleFiles {
    /// What a share of `files` is called when it is not named: the folder they all are in (`photos.zip`), else how
    /// many they are (`3 files.zip`).
    public static func defaultName(of files: [BundleFile]) -> String {
        let tops = Set(files.map { $0.name.split(separator: "/").first.map(String.init) ?? $0.name })
        let single = tops.count == 1 && files.allSatisfy { $0.name != tops.first } ? tops.first : files.count == 1 ? files[0].baseName : nil
        if let single, single.utf8.count + 4 <= FileName.maxBytes { return "\(single).zip" }
        return "\(files.count) files.zip"
    }
}

extension BundleFiles {
    /// The JSON a record shows of its files, as stores keep it.
    public static func json(_ files: [BundleFile]) -> String {
        String(decoding: (try? WireJSON.encoder().encode(files)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// The files of JSON `json` wrote; nil for anything else.
    public static func files(json: String) -> [BundleFile]? {
        try? WireJSON.decoder().decode([BundleFile].self, from: Data(json.utf8))
    }

    /// CRC-32s as stores keep them: 4 bytes each, big-endian.
    public static func packed(_ checksums: [UInt32]) -> [UInt8] {
        checksums.flatMap { withUnsafeBytes(of: $0.bigEndian, Array.init) }
    }

    /// The CRC-32s `packed` wrote; nil for bytes it cannot have.
    public static func unpacked(_ bytes: some Collection<UInt8>) -> [UInt32]? {
        guard bytes.count % 4 == 0 else { return nil }
        let array = Array(bytes)
        return stride(from: 0, to: array.count, by: 4).map { at in array[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
    }
}
