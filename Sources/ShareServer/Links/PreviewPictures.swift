import HTTPTypes
import Hummingbird
import NIOPosix
import ShareHistory
import ShareKit
import ShareThumbnails

/// The pictures links' pages preview, made with libvips from a share's bytes and kept by their hash, so that
/// whoever reloads a page, or asks for its picture a thousand times, costs one decode. The bytes read and their
/// decoding both take room in the decoding budget the thumbnails use, so a burst of previews holds at most that much
/// memory; one asked for while it is being made waits for that one. A file that cannot be pictured is remembered as
/// such; a store that did not answer is not.
actor PreviewPictures {
    let maker: ThumbnailMaker
    let budget: DecodingBudget
    /// What the pictures kept may take together.
    static let keptBytes = 32 * 1_048_576
    /// How long a preview waits for room in the budget before the page does without it.
    static let budgetWait = Duration.seconds(10)

    /// Pictures by kind and hash, an empty one where none could be made; the least recently used first in `order`.
    private var kept: [String: [UInt8]] = [:]
    private var order: [String] = []
    private var keptSize = 0
    private var making: [String: Task<[UInt8]?, any Error>] = [:]

    init(maker: ThumbnailMaker = ThumbnailMaker(), budget: DecodingBudget) {
        self.maker = maker
        self.budget = budget
    }

    /// The `.picture` or `.firstPage` preview of `bytes`, as WebP; nil when none can be made of them. Throws
    /// `picturesBusy` when the budget had no room in time, and what the store threw.
    func picture(of bytes: any StoredBytes, as kind: PreviewKind) async throws -> [UInt8]? {
        let key = "\(kind == .firstPage ? "page" : "picture") \(bytes.hash)"
        if let found = kept[key] {
            order.removeAll { $0 == key }
            order.append(key)
            return found.isEmpty ? nil : found
        }
        if let underway = making[key] { return try await underway.value }
        let task = Task { [maker, budget] in try await Self.make(of: bytes, as: kind, maker: maker, budget: budget) }
        making[key] = task
        defer { making[key] = nil }
        let made = try await task.value
        keep(made ?? [], as: key)
        return made
    }

    /// The answer carrying `picture` (its `tag`), or 304 to a request that holds it; `nosniff` and sandboxed.
    static func response(_ picture: [UInt8], to request: Request, tag: String, cacheControl: String) -> Response {
        var headers: HTTPFields = [
            .contentType: "image/webp", .eTag: tag, .cacheControl: cacheControl, .xContentTypeOptions: "nosniff",
            .contentSecurityPolicy: "sandbox; default-src 'none'", .init("Referrer-Policy")!: "no-referrer",
        ]
        if EntityTags.noneMatchHolds(request.headers, for: tag) { return Response(status: .notModified, headers: headers) }
        headers[.contentLength] = String(picture.count)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: picture)))
    }

    private func keep(_ picture: [UInt8], as key: String) {
        guard picture.count <= Self.keptBytes, kept[key] == nil else { return }
        kept[key] = picture
        order.append(key)
        keptSize += picture.count
        while keptSize > Self.keptBytes, let oldest = order.first {
            order.removeFirst()
            keptSize -= kept.removeValue(forKey: oldest)?.count ?? 0
        }
    }

    private static func make(of bytes: any StoredBytes, as kind: PreviewKind, maker: ThumbnailMaker, budget: DecodingBudget) async throws -> [UInt8]?
    {
        let size = Int(bytes.size)
        guard size < budget.capacity else { return nil }
        try await reserve(size, in: budget)
        defer { budget.release(size) }
        var file: [UInt8] = []
        file.reserveCapacity(size)
        try await bytes.send(0..<bytes.size) { file.append(contentsOf: $0.readableBytesView) }
        let drawn = file
        if kind == .firstPage {
            guard ThumbnailMaker.isPDF(drawn), size + ThumbnailMaker.pdfPageBytes <= budget.capacity else { return nil }
            try await reserve(ThumbnailMaker.pdfPageBytes, in: budget)
            defer { budget.release(ThumbnailMaker.pdfPageBytes) }
            return try? await NIOThreadPool.singleton.runIfActive { try maker.firstPage(ofPDF: drawn) }
        }
        guard let inspected = try? maker.inspect(drawn), size + inspected.decodingBytes <= budget.capacity else { return nil }
        try await reserve(inspected.decodingBytes, in: budget)
        defer { budget.release(inspected.decodingBytes) }
        return try? await NIOThreadPool.singleton.runIfActive { try maker.preview(of: inspected) }
    }

    private static func reserve(_ bytes: Int, in budget: DecodingBudget) async throws {
        guard await budget.reserve(bytes, waitingAtMost: budgetWait) else { throw ShareError.picturesBusy(retryAfterSeconds: 2) }
    }
}
