import ShareKit
import Testing

@Suite struct ListenAddressTests {
    @Test func readsHostPortIPv6AndUnixSockets() {
        #expect(ListenAddress("127.0.0.1:8080") == .tcp(host: "127.0.0.1", port: 8080))
        #expect(ListenAddress("[::1]:9000") == .tcp(host: "::1", port: 9000))
        #expect(ListenAddress("unix:/run/share/shared.sock") == .unix(path: "/run/share/shared.sock"))
        #expect(ListenAddress("::1:9000") == nil)
        #expect(ListenAddress("127.0.0.1") == nil)
        #expect(ListenAddress("127.0.0.1:70000") == nil)
        #expect(ListenAddress("unix:relative.sock") == nil)
    }

    @Test func knowsWhichAddressesOnlyThisMachineReaches() {
        for local in ["127.0.0.1:1", "127.8.9.10:1", "[::1]:1", "localhost:1", "unix:/tmp/s.sock"] {
            #expect(ListenAddress(local)!.isLocalOnly, "\(local)")
        }
        for open in ["0.0.0.0:1", "[::]:1", "192.168.1.4:1", "example.org:1"] {
            #expect(!ListenAddress(open)!.isLocalOnly, "\(open)")
        }
    }
}

@Suite struct IPAddressRangeTests {
    @Test func matchesAddressesInsideTheBlock() {
        let v4 = IPAddressRange("10.1.0.0/16")!
        #expect(v4.contains("10.1.255.3"))
        #expect(!v4.contains("10.2.0.1"))
        #expect(!v4.contains("::1"))
        let v6 = IPAddressRange("fd00::/8")!
        #expect(v6.contains("fd12:3456::1"))
        #expect(!v6.contains("fe80::1"))
        #expect(IPAddressRange("192.168.1.7")!.contains("192.168.1.7"))
    }

    @Test func rejectsMalformedBlocks() {
        #expect(IPAddressRange("10.0.0.0/33") == nil)
        #expect(IPAddressRange("10.0.0/8") == nil)
        #expect(IPAddressRange("::1/129") == nil)
        #expect(IPAddressRange("localhost") == nil)
    }
}
