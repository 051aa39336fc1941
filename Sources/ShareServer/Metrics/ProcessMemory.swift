import Foundation

/// The daemon's own memory, as Linux counts it.
enum ProcessMemory {
    /// Resident bytes now (`/proc/self/statm`'s second field, in pages); 0 where there is no such file.
    static func residentBytes() -> Int64 {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int64($0) })
        else { return 0 }
        return pages * Int64(sysconf(Int32(_SC_PAGESIZE)))
    }
}
