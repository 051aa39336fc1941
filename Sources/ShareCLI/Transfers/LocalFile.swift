import Foundation

/// A file `share add` sends: where it is, the name (or path) it has in its share, and its size when listed.
struct LocalFile: Equatable {
    let path: String
    let name: String
    let size: Int64
}

/// Files read one after the other as one stream of bytes, from any offset, each to the size it had when listed: the
/// body of an upload of several files as one share.
final class LocalFilesReader {
    private let files: [LocalFile]
    private var index: Int
    private var left: Int64
    private var descriptor: Int32 = -1
    /// Why reading stopped short: a file gone, unreadable, or shorter than it was.
    private(set) var failure: String?

    /// Starts reading at `offset` of the files' bytes.
    init(_ files: [LocalFile], from offset: Int64) {
        self.files = files
        var (index, start): (Int, Int64) = (0, 0)
        while index < files.count, start + files[index].size <= offset {
            start += files[index].size
            index += 1
        }
        self.index = index
        left = index < files.count ? files[index].size - (offset - start) : 0
        if index < files.count { open(at: offset - start) }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Fills `buffer` with the next bytes: how many, 0 at the end, nil when a file could not be read as listed.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        while index < files.count {
            guard failure == nil else { return nil }
            guard left == 0 else {
                let count = Foundation.read(descriptor, buffer.baseAddress, Int(min(Int64(buffer.count), left)))
                guard count > 0 else {
                    failure = "\(files[index].path) could not be read to its end (is it shorter than it was?)"
                    return nil
                }
                left -= Int64(count)
                return count
            }
            index += 1
            guard index < files.count else { break }
            left = files[index].size
            open(at: 0)
        }
        return 0
    }

    private func open(at offset: Int64) {
        if descriptor >= 0 { close(descriptor) }
        descriptor = Foundation.open(files[index].path, O_RDONLY)
        if descriptor < 0 {
            failure = "cannot read \(files[index].path): no such file or no permission"
        } else {
            lseek(descriptor, off_t(offset), SEEK_SET)
        }
    }
}
