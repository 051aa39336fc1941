import Foundation
import NIOCore
import NIOHTTP1
import ShareHistory
import Synchronization

/// Lets a route send a range of a file with `sendfile`, from the page cache to the socket without a copy through
/// the process, although Hummingbird's body writer takes only buffers: the route registers the range under a marker
/// buffer and writes the marker; this handler, just before NIO's HTTP/1 encoder, writes the file's range in its
/// place. A marker is known by its storage, never by its bytes, so no file's content can pose as one.
final class FileRegionHandoff: ChannelOutboundHandler, RemovableChannelHandler, Sendable {
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private struct Entry {
        let marker: ByteBuffer
        let region: FileRegion
        let written: EventLoopPromise<Void>
    }

    private struct Waiting {
        var entries: [UInt: Entry] = [:]
        var eventLoop: (any EventLoop)?
        var closed = false
    }

    /// The connection closed before a region was written.
    struct ConnectionClosed: Error {}

    private let waiting = Mutex(Waiting())

    /// The buffer to write in place of `region`, and when the region was written; the handoff closes the region's
    /// file handle once it is written or dropped.
    func marker(for region: FileRegion) throws -> (marker: ByteBuffer, written: EventLoopFuture<Void>) {
        var marker = ByteBufferAllocator().buffer(capacity: 1)
        marker.writeInteger(UInt8(0))
        let written = waiting.withLock { waiting -> EventLoopPromise<Void>? in
            guard !waiting.closed, let eventLoop = waiting.eventLoop else { return nil }
            let entry = Entry(marker: marker, region: region, written: eventLoop.makePromise())
            waiting.entries[Self.key(of: marker)] = entry
            return entry.written
        }
        guard let written else {
            try? region.fileHandle.close()
            throw ConnectionClosed()
        }
        written.futureResult.whenComplete { _ in try? region.fileHandle.close() }
        return (marker, written.futureResult)
    }

    /// How many bytes of a file `buffer` stands for, when it is a marker not yet written.
    func length(of buffer: ByteBuffer) -> Int? {
        guard buffer.readableBytes == 1 else { return nil }
        return waiting.withLock { $0.entries[Self.key(of: buffer)]?.region.readableBytes }
    }

    func handlerAdded(context: ChannelHandlerContext) {
        waiting.withLock { $0.eventLoop = context.eventLoop }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .body(.byteBuffer(let buffer)) = unwrapOutboundIn(data), buffer.readableBytes == 1,
            let entry = waiting.withLock({ $0.entries.removeValue(forKey: Self.key(of: buffer)) })
        else { return context.write(data, promise: promise) }
        entry.written.futureResult.cascade(to: promise)
        context.write(wrapOutboundOut(.body(.fileRegion(entry.region))), promise: entry.written)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        let dropped = waiting.withLock { waiting in
            waiting.closed = true
            defer { waiting.entries = [:] }
            return waiting.entries.values.map(\.written)
        }
        for written in dropped { written.fail(ConnectionClosed()) }
    }

    private static func key(of buffer: ByteBuffer) -> UInt {
        buffer.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) }
    }
}

extension FileRegionHandoff {
    /// How much of a file one marker stands for: small enough that a download checks its link often.
    static let regionBytes: Int64 = 4 << 20

    /// Opens the file at `path`, so that one gone fails the request before its answer begins, and returns the sending
    /// of `range` of it: each region's marker written while the one before goes, and counted sent once it went.
    func sending(fileAt path: String, _ range: Range<Int64>) throws -> SharedFile.Sending {
        let file = try DescribedFile(path)
        return { write, sent in
            var inFlight: (written: EventLoopFuture<Void>, length: Int64)?
            var position = range.lowerBound
            while position < range.upperBound {
                let end = min(position + Self.regionBytes, range.upperBound)
                let handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: try file.duplicate())
                let region = try self.marker(for: FileRegion(fileHandle: handle, readerIndex: Int(position), endIndex: Int(end)))
                try await write(region.marker)
                if let previous = inFlight {
                    try await previous.written.get()
                    sent(previous.length)
                }
                (inFlight, position) = ((region.written, end - position), end)
            }
            if let last = inFlight {
                try await last.written.get()
                sent(last.length)
            }
        }
    }
}

/// A file open for reading, closed with the last reference to it; each region sent takes a duplicate of it.
private final class DescribedFile: Sendable {
    let descriptor: CInt
    let path: String

    init(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw StoreError.files(action: "open a share's file \(path)", reason: String(cString: strerror(errno))) }
        (self.descriptor, self.path) = (descriptor, path)
    }

    deinit { close(descriptor) }

    func duplicate() throws -> CInt {
        let copy = dup(descriptor)
        guard copy >= 0 else { throw StoreError.files(action: "send a share's file \(path)", reason: String(cString: strerror(errno))) }
        return copy
    }
}
