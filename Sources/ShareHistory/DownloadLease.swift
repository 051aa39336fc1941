import ShareKit

/// How long a download being sent holds its place without word from its node: the node renews it every `renewal`
/// while bytes go, so a lease that runs out means the node stopped (killed, or cut off from the store), and the
/// download is given back by whichever node sweeps next.
public enum DownloadLease {
    public static let length = Duration.seconds(60)
    public static let renewal = Duration.seconds(20)

    /// When a lease taken or renewed at `now` runs out.
    public static func until(_ now: Timestamp) -> Timestamp {
        now.adding(length)
    }
}

extension DownloadLease {
    /// Renews the lease of the download `entry` every `renewal` until cancelled (its sending ended). A renewal the
    /// store refuses is tried again at the next.
    public static func keep(_ entry: Int64, in store: any ShareStore) async {
        while true {
            do {
                try await Task.sleep(for: renewal)
            } catch {
                return
            }
            try? await store.keepSending(entry, until: until(.now()))
        }
    }
}
