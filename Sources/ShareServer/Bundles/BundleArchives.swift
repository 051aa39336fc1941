import NIOCore
import ShareHistory
import ShareKit

/// The ZIPs of shares that hold several files, each laid out from its files and their CRC-32s. The store keeps the
/// CRC-32s once known; a share's first ZIP reads them from its bytes before its first byte goes, once however many ask
/// for it at the same time. Layouts are kept for the downloads that follow, up to `keptEntries` entries in all, so
/// that many downloads of a share of many files share one.
actor BundleArchives {
    let store: any ShareStore
    private var reading: [String: Task<[UInt32], any Error>] = [:]
    /// Layouts by share, oldest first.
    private var kept: [(key: String, archive: ZipArchive)] = []
    static let keptEntries = 200_000

    init(store: any ShareStore) {
        self.store = store
    }

    /// The ZIP of `record`'s files, whose bytes are `bytes`.
    func archive(of record: ShareRecord, files: [BundleFile], _ bytes: any StoredBytes) async throws -> ZipArchive {
        // A share's files and time never change; the time tells a share from another given the same id since.
        let key = "\(record.id) \(record.createdAt.millisecondsSinceEpoch)"
        if let known = kept.first(where: { $0.key == key })?.archive { return known }
        let archive = ZipArchive(files: files, checksums: try await checksums(record.id, files, bytes), modified: record.createdAt)
        kept.removeAll { $0.key == key }
        kept.append((key, archive))
        while kept.reduce(0, { $0 + $1.archive.entryCount }) > Self.keptEntries, kept.count > 1 { kept.removeFirst() }
        return archive
    }

    private func checksums(_ id: String, _ files: [BundleFile], _ bytes: any StoredBytes) async throws -> [UInt32] {
        if let kept = try await store.fileChecksums(id: id), kept.count == files.count { return kept }
        if let task = reading[id] { return try await task.value }
        let task = Task { [store] in
            let checksums = try await Self.read(files, bytes)
            // Kept for the next time; a store that cannot keep them now has them read again then.
            try? await store.keepFileChecksums(id: id, checksums)
            return checksums
        }
        reading[id] = task
        defer { reading[id] = nil }
        return try await task.value
    }

    /// The CRC-32 of each of `files`, read from their bytes end to end in one pass.
    static func read(_ files: [BundleFile], _ bytes: any StoredBytes) async throws -> [UInt32] {
        guard !files.isEmpty, bytes.size == files.reduce(0, { $0 + $1.size }) else { throw ZipBytesMismatch() }
        var checksums: [UInt32] = []
        checksums.reserveCapacity(files.count)
        var crc = CRC32()
        var left = files[0].size
        // Each file that ends here is done, and the next one's bytes come; an empty one ends where it begins.
        func finishEnded() {
            while left == 0, checksums.count < files.count {
                checksums.append(crc.value)
                crc = CRC32()
                if checksums.count < files.count { left = files[checksums.count].size }
            }
        }
        finishEnded()
        try await bytes.send(0..<bytes.size) { chunk in
            var chunk = chunk
            while chunk.readableBytes > 0 {
                guard checksums.count < files.count else { throw ZipBytesMismatch() }
                let count = Int(min(Int64(chunk.readableBytes), left))
                chunk.readWithUnsafeReadableBytes { buffer in
                    crc.update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                    return count
                }
                left -= Int64(count)
                finishEnded()
            }
        }
        guard checksums.count == files.count else { throw ZipBytesMismatch() }
        return checksums
    }
}
