import Testing

@testable import ShareServer

/// What a share's owner learns of who downloaded it: the network, never the address; the browser's family, never
/// the whole user agent.
@Suite struct DownloadVisitorTests {
    @Test(arguments: [
        ("203.0.113.77", "203.0.113.0"), ("2001:db8:1:2:3:4:5:6", "2001:db8:1::"), ("2001:db8::1", "2001:db8:0::"), ("::1", "0:0:0::"),
        ("local", "-"), ("203.0.113", "-"),
    ])
    func anAddressIsCutToItsNetwork(address: String, network: String) {
        #expect(DownloadVisitor.network(of: address) == network)
    }

    @Test(arguments: [
        ("Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/120.0 Safari/537.36 Edg/120.0", "Edge"),
        ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36", "Chrome"),
        ("Mozilla/5.0 (iPhone) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1", "Safari"),
        ("Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0", "Firefox"),
        ("curl/8.5.0", "curl"), ("Wget/1.21.3", "wget"), ("wget2/2.0.1", "wget"), ("share/0.40.0", "share"), ("", "other"),
    ])
    func aUserAgentIsNamedByItsFamily(header: String, family: String) {
        #expect(DownloadVisitor.agent(header) == family)
    }
}
