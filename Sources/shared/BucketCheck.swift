import ShareKit
import ShareObjectStore

/// `shared check`'s look at the bucket: every object the history names is there, whole (a failure naming those that
/// are not), and the objects under `blobs/` nothing names are counted; with `--repair`, deleted. The bucket is listed
/// before the history is read, so an object made meanwhile is never taken for one nothing names.
struct BucketCheck {
    let client: S3Client

    func run(named: () async throws -> [String: Int64?], repair: Bool) async throws -> String {
        var listed: [String: Int64] = [:]
        var token: String?
        repeat {
            let page = try await client.list(prefix: "blobs/", after: token)
            for object in page.objects { listed[object.key] = object.size }
            token = page.next
        } while token != nil
        let wanted = try await named()
        let missing = wanted.filter { key, size in size.map { listed[key] != $0 } ?? false }.keys.sorted()
        guard missing.isEmpty else {
            throw BucketCheckFailure(
                description: "\(missing.count) objects of shares are missing or not whole in the \(client.location.description): "
                    + missing.prefix(5).joined(separator: ", "))
        }
        let unclaimed = listed.filter { wanted[$0.key] == nil }
        if repair {
            for key in unclaimed.keys { try await client.delete(key) }
        }
        let files = wanted.values.compactMap { $0 }
        var summary = "\(files.count) objects of shares (\(files.reduce(0, +)) bytes) whole in the \(client.location.description)"
        if !unclaimed.isEmpty {
            let bytes = unclaimed.values.reduce(0, +)
            summary +=
                repair
                ? "; \(unclaimed.count) no share needs (\(bytes) bytes) deleted"
                : "; \(unclaimed.count) no share needs (\(bytes) bytes), which --repair deletes"
        }
        return summary
    }
}

struct BucketCheckFailure: Error, CustomStringConvertible {
    let description: String
}
