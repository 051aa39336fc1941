import PostgresNIO
import ShareHistory
import ShareKit

extension PostgresStore {
    public func fileChecksums(id: String) async throws -> [UInt32]? {
        try await read { [logger] connection in
            let rows = try await connection.query(
                "SELECT file_checksums FROM share WHERE id_key = \(PostgresRows.idKey(id))", logger: logger)
            for try await packed in rows.decode(ByteBuffer?.self) { return packed.flatMap { BundleFiles.unpacked($0.readableBytesView) } }
            return nil
        }
    }

    public func keepFileChecksums(id: String, _ checksums: [UInt32]) async throws {
        try await write { [logger] connection in
            _ = try await connection.query(
                """
                UPDATE share SET file_checksums = \(ByteBuffer(bytes: BundleFiles.packed(checksums)))
                WHERE id_key = \(PostgresRows.idKey(id)) AND files IS NOT NULL
                """, logger: logger)
        }
    }
}
