import Foundation
import HTTPTypes
import HummingbirdTesting
import ShareKit
import StoreTestSupport
import Testing

@Suite struct TransferRoutesTests {
    @Test(arguments: Backend.allCases)
    func importKeepsValidRecordsAndReportsTheOthersByLine(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            let ndjson = """
                {"name": "a.pdf", "size": 1, "id": "legacy-1", "createdAt": "2020-01-01T08:00:00+08:00"}
                {"name": "bad/name.pdf", "size": 1}
                {"name": "b.jpg", "size": 2, "folder": "/photos", "unknown": true}
                {"name": "c.txt", "size": 3, "id": "LEGACY-1"}
                """
            let report = try await client.send(.post, "/share/import", ndjson).decode(ImportReport.self)
            #expect(report.imported == 2 && report.rejected == 2)
            #expect(report.problems.map(\.line) == [2, 4])
            #expect(report.problems[0].detail == "field 'name' must not contain '/'")
            let kept = try await client.send(.get, "/share/legacy-1").decode(ShareRecord.self)
            #expect(kept.createdAt.description == "2020-01-01T00:00:00.000Z")
        }
    }

    @Test(arguments: Backend.allCases)
    func exportThenImportReproducesTheHistory(_ backend: Backend) async throws {
        let exported = try await withServer(backend: backend) { client in
            let array = (0..<2500).map { #"{"name": "f\#($0).pdf", "size": \#($0), "createdAt": "2021-01-17T00:00:00Z"}"# }
            let report = try await client.send(.post, "/share/import", "[" + array.joined(separator: ",\n") + "]").decode(ImportReport.self)
            #expect(report.imported == 2500)
            let trashed = try await client.create(#""name": "gone.pdf", "size": 1"#)
            _ = try await client.send(.delete, "/share/\(trashed.id)")
            let response = try await client.send(.get, "/share/export")
            #expect(response.headers[.contentType] == "application/x-ndjson")
            return response.text
        }
        let lines = exported.split(separator: "\n")
        #expect(lines.count == 2500, "live records only, across several chunks")
        try await withServer(backend: backend) { client in
            let report = try await client.send(.post, "/share/import", exported).decode(ImportReport.self)
            let again = try await client.send(.get, "/share/export").text
            #expect(report.imported == 2500)
            #expect(again == exported)
        }
    }

    @Test(arguments: Backend.allCases)
    func anExportWithTheTrashRoundTripsByteForByte(_ backend: Backend) async throws {
        let exported = try await withServer(backend: backend) { client in
            for index in 0..<5 {
                try await client.create(#""name": "f\#(index).pdf", "size": \#(index), "folder": "/a""#)
            }
            let records = try await client.send(.get, "/share?order=asc").decode([ShareRecord].self)
            _ = try await client.send(.delete, "/share/\(records[1].id)")
            _ = try await client.send(.delete, "/share/\(records[3].id)")
            #expect(try await client.send(.get, "/share/export").text.split(separator: "\n").count == 3, "by default, live records only")
            #expect(try await client.send(.get, "/share/export?trashed=yes").status == .badRequest)
            return try await client.send(.get, "/share/export?trashed=include").text
        }
        #expect(exported.split(separator: "\n").count == 5)
        #expect(exported.split(separator: "\n").filter { $0.contains("\"trashedAt\"") }.count == 2)
        try await withServer(backend: backend) { client in
            let report = try await client.send(.post, "/share/import", exported).decode(ImportReport.self)
            #expect(report.imported == 5)
            #expect(try await client.send(.get, "/share/export?trashed=include").text == exported, "export, import, export: the same bytes")
            #expect(try await client.send(.get, "/share?trashed=true").decode([ShareRecord].self).count == 2, "the trash kept")
        }
    }

    /// Batches are stored while the next ones are read: problems still come back in line order, and the
    /// records keep the order they came in.
    @Test(arguments: Backend.allCases)
    func aLongImportKeepsLineOrderAcrossBatches(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            var lines = (1...25_000).map { #"{"name": "f\#($0).pdf", "size": \#($0), "id": "id-\#($0)"}"# }
            lines[14_999] = #"{"name": "again.pdf", "size": 1, "id": "ID-2"}"#
            lines[2] = #"{"name": "bad/name.pdf", "size": 1}"#
            lines[23_999] = #"{"name": "f.pdf", "size": -1}"#
            let report = try await client.send(.post, "/share/import", lines.joined(separator: "\n")).decode(ImportReport.self)
            #expect(report.imported == 24_997)
            #expect(report.problems.map(\.line) == [3, 15_000, 24_000])
            let exported = try await client.send(.get, "/share/export").text.split(separator: "\n")
            let ids = try exported.map { try WireJSON.decoder().decode(ShareRecord.self, from: Data($0.utf8)).id }
            #expect(ids.count == 24_997 && ids.first == "id-1" && ids.last == "id-25000")
            #expect(ids == ids.sorted { Int($0.dropFirst(3))! < Int($1.dropFirst(3))! })
        }
    }

    @Test(arguments: Backend.allCases)
    func oneRecordAboveTheLimitStopsTheImportThere(_ backend: Backend) async throws {
        try await withServer({ $0.server.maxBodyBytes = 100 }, backend: backend) { client in
            let big = #"{"name": "\#(String(repeating: "x", count: 200)).pdf", "size": 1}"#
            let report = try await client.send(.post, "/share/import", "{\"name\": \"ok.pdf\", \"size\": 1}\n" + big).decode(ImportReport.self)
            #expect(report.imported == 1)
            #expect(report.problems.first?.line == 2)
        }
    }
}
