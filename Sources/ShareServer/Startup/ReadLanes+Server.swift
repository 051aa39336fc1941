import Metrics
import ShareHistory
import ShareKit

extension ReadLanes {
    /// The read lanes `[server] heavy_reads` and `heavy_wait_seconds` ask for, counting each read's lane for `/metrics`.
    /// Its counters are made once: making one looks it up in the registry, a cost every read would pay.
    public init(_ server: ServerSettings) {
        let quick = Counter(label: "share_reads_total", dimensions: [("lane", Outcome.quick.rawValue)])
        let heavy = Counter(label: "share_reads_total", dimensions: [("lane", Outcome.heavy.rawValue)])
        let shed = Counter(label: "share_reads_shed_total")
        self.init(
            heavySlots: server.heavyReads == 0 ? ReadLanes.defaultHeavySlots : server.heavyReads, heavyWait: .seconds(server.heavyWaitSeconds),
            observe: { outcome in
                switch outcome {
                case .quick: quick.increment()
                case .heavy: heavy.increment()
                case .shed: shed.increment()
                }
            })
    }
}
