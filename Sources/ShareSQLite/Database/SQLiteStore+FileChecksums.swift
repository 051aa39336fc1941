import Foundation
import GRDB
import ShareHistory
import ShareKit

extension SQLiteStore {
    public func fileChecksums(id: String) async throws -> [UInt32]? {
        try await writer.read { db in
            let packed = try Data.fetchOne(db.cachedStatement(sql: "SELECT file_checksums FROM share WHERE id = ?"), arguments: [id])
            return packed.flatMap(BundleFiles.unpacked)
        }
    }

    public func keepFileChecksums(id: String, _ checksums: [UInt32]) async throws {
        try await SQLiteStore.storing {
            try await writer.write { db in
                try db.execute(
                    sql: "UPDATE share SET file_checksums = ? WHERE id = ? AND files IS NOT NULL",
                    arguments: [Data(BundleFiles.packed(checksums)), id])
            }
        }
    }
}
