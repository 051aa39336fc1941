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

/// A `Host` that does not name the daemon is refused (421) when no sign-in is configured: what each spelling means.
@Suite struct HostNameTests {
    @Test func aHostHeaderIsOneNameWhateverItsCaseOrDefaultPort() {
        #expect(HostName(authority: "Files.Example.ORG:8080") == HostName(authority: "files.example.org:8080"))
        #expect(HostName(authority: "files.example.org:8080")?.name == "files.example.org")
        #expect(HostName(authority: "files.example.org:443")?.port == nil)
        let bracketed = HostName(authority: "[::1]:9000")
        #expect(bracketed?.name == "::1" && bracketed?.port == 9000)
        #expect(HostName(origin: "https://Files.example.org") == HostName(authority: "files.example.org:443"))
    }

    @Test func refusesWhatNoHostIsCalled() {
        for text in [
            "", "files_example.org", "fïles.org", "files.org/x", "files org", "\u{212A}.org", String(repeating: "a", count: 254), "1:2:zz::1",
        ] {
            #expect(HostName(text) == nil, "\(text)")
        }
        for authority in ["files.org:http", "files.org:70000", "[::1", "[::1]x"] {
            #expect(HostName(authority: authority) == nil, "\(authority)")
        }
    }

    @Test func knowsTheNamesOfThisMachine() {
        for local in ["localhost", "app.localhost", "127.0.0.1", "127.200.3.4", "::1"] { #expect(HostName(local)!.isLoopback, "\(local)") }
        for other in ["localhost.example.org", "128.0.0.1", "10.0.0.1", "::2"] { #expect(!HostName(other)!.isLoopback, "\(other)") }
    }
}
