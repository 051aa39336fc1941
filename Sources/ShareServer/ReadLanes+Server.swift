import Metrics
import ShareHistory
import ShareKit

extension ReadLanes {
    /// The read lanes `[server] heavy_reads` and `heavy_wait_seconds` ask for, counting each read's lane for `/metrics`.
    public init(_ server: ServerSettings) {
        self.init(
            heavySlots: server.heavyReads == 0 ? ReadLanes.defaultHeavySlots : server.heavyReads, heavyWait: .seconds(server.heavyWaitSeconds),
            observe: { outcome in
                if outcome == .shed {
                    Counter(label: "share_reads_shed_total").increment()
                } else {
                    Counter(label: "share_reads_total", dimensions: [("lane", outcome.rawValue)]).increment()
                }
            })
    }
}
