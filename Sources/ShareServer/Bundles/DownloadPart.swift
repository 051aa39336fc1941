import ShareHistory
import ShareKit

/// What a request for a share's bytes asks for: its file (a share of several: their ZIP), their ZIP, or one of them
/// (`n` counts from 0, in the order of the record's `files`).
enum DownloadPart: Equatable, Sendable {
    case whole, zip
    case file(Int)

    /// One file, by the number a path gives (`/files/{n}`); nil for anything but a whole number.
    init?(fileNumber text: String?) {
        guard let index = text.flatMap({ Int64(clientDigits: $0).flatMap { Int(exactly: $0) } }) else { return nil }
        self = .file(index)
    }
}

/// The bytes a `DownloadPart` of a share sends, the name they are saved under, and how they count: the share's own
/// bytes in a range of them (what the access log and a download limit count), and whether a range completes a
/// download (one holding the share's last byte, in the ZIP or its last file: a ZIP's directory alone, which unzipping
/// tools read first, is no download).
struct PartBytes: Sendable {
    let bytes: any StoredBytes
    let name: String
    /// Tells this part's `ETag` from the others' of the same link.
    let tagWord: String
    let counted: @Sendable (Range<Int64>) -> Int64
    let completes: @Sendable (Range<Int64>) -> Bool
}

extension PartBytes {
    /// The share's file, whole.
    init(file bytes: any StoredBytes, name: String) {
        self.init(
            bytes: bytes, name: name, tagWord: "", counted: { Int64($0.count) }, completes: { [size = bytes.size] in $0.upperBound == size })
    }
}

extension BundleArchives {
    /// What `part` of `record`, whose bytes are `bytes`, sends; nil when the share has no such part (a ZIP or a file
    /// of a share of one file, a file past the last).
    func part(_ part: DownloadPart, of record: ShareRecord, _ bytes: any StoredBytes) async throws -> PartBytes? {
        guard let files = record.files else { return part == .whole ? PartBytes(file: bytes, name: record.name) : nil }
        switch part {
        case .whole, .zip:
            let archive = try await archive(of: record, files: files, bytes)
            let name = record.name.lowercased().hasSuffix(".zip") ? record.name : record.name + ".zip"
            return PartBytes(
                bytes: ZipBytes(archive: archive, files: bytes), name: name, tagWord: " zip", counted: { archive.dataBytes(in: $0) },
                completes: { [end = archive.endOfData] in $0.contains(end - 1) })
        case .file(let index):
            guard files.indices.contains(index) else { return nil }
            let start = files[..<index].reduce(0) { $0 + $1.size }
            let span = start..<(start + files[index].size)
            // Empty files send nothing: the last one with bytes holds the share's last byte.
            let last = index == files.lastIndex { $0.size > 0 }
            return PartBytes(
                bytes: FileOfBundle(files: bytes, span: span), name: files[index].baseName, tagWord: " file \(index)",
                counted: { Int64($0.count) }, completes: { [size = span.count] in last && $0.upperBound == size })
        }
    }
}
