import Foundation
import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

/// A folder's subfolders with their counts and bytes. Were they wrong, the page's folder list and `share folders`
/// would promise shares that a click into the folder does not show.
@Suite struct FolderTests {
    @Test(arguments: Backend.allCases)
    func aFolderListsItsSubfoldersWithEverythingBelowThem(_ backend: Backend) async throws {
        try await backend.withStore { database in
            try await database.sharedHistory.add("top.pdf", size: 1)
            try await database.sharedHistory.add("a.pdf", size: 10, folder: "/reports")
            try await database.sharedHistory.add("b.pdf", size: 20, folder: "/reports/2021")
            try await database.sharedHistory.add("c.pdf", size: 40, folder: "/reports/2021/q1")
            try await database.sharedHistory.add("d.pdf", size: 80, folder: "/reports 2")
            try await database.sharedHistory.add("e.jpg", size: 160, folder: "/Photos")
            let trashed = try await database.sharedHistory.add("f.jpg", size: 320, folder: "/trashed only")
            try await database.sharedHistory.trashShare(id: trashed.id, includeTrashed: false, by: "test")
            try await database.history(of: "bob", quota: nil).add("bob.pdf", size: 640, folder: "/bob's")

            #expect(
                try await database.sharedHistory.folders(in: "/") == [
                    FolderUsage(folder: "/Photos", name: "Photos", count: 1, bytes: 160),
                    FolderUsage(folder: "/reports", name: "reports", count: 3, bytes: 70),
                    FolderUsage(folder: "/reports 2", name: "reports 2", count: 1, bytes: 80),
                ], "by name, whatever the case; the trash and another history's folders are not there")
            #expect(
                try await database.sharedHistory.folders(in: "/reports") == [FolderUsage(folder: "/reports/2021", name: "2021", count: 2, bytes: 60)])
            #expect(try await database.sharedHistory.folders(in: "/reports/2021/q1") == [], "a folder without subfolders")
            #expect(try await database.sharedHistory.folders(in: "/nowhere") == [])
            #expect(
                try await database.history(of: "bob", quota: nil).folders(in: "/") == [
                    FolderUsage(folder: "/bob's", name: "bob's", count: 1, bytes: 640)
                ]
            )
        }
    }
}
