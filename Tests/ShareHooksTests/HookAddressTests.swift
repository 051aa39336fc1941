import ShareKit
import Testing

@testable import ShareHooks

/// A hook reaches only the public internet unless the operator lets it into a private network: no way in to the
/// node's own services, the cloud's metadata or the office network through a URL someone typed.
@Suite struct HookAddressTests {
    @Test(arguments: [
        "127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "100.100.100.200",
        "0.0.0.0", "224.0.0.251", "255.255.255.255", "::1", "::", "fe80::1", "fc00::1", "fd00:ec2::254", "ff02::1", "::ffff:127.0.0.1",
        "::ffff:10.0.0.1",
    ])
    func addressesOfNoPublicHostAreRefused(_ address: String) {
        #expect(!HookAddress.isPublic(address))
    }

    @Test(arguments: ["93.184.215.14", "1.1.1.1", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "2001:4860:4860::8888"])
    func publicAddressesAreReached(_ address: String) {
        #expect(HookAddress.isPublic(address))
    }

    @Test(arguments: ["ftp://example.com/x", "file:///etc/passwd", "example.com/hook", "https://", "https://user:pw@example.com/", "gopher://a"])
    func onlyHTTPAndHTTPSURLsWithAHostAndNoPasswordAreHooks(_ url: String) async {
        #expect(HookAddress.shapeProblem(of: url) != nil)
        await #expect(throws: ShareError.self) { try await HookAddress.check(url, allowPrivate: true) }
    }

    @Test func aNameResolvingToLoopbackIsRefusedNamingTheFieldUnlessPrivateAddressesAreAllowed() async throws {
        await #expect {
            try await HookAddress.check("http://localhost:9/hook", allowPrivate: false)
        } throws: { error in
            guard case ShareError.invalidField("url", let reason) = error else { return false }
            return reason.contains("resolves to") && reason.contains("allow_private_addresses")
        }
        await #expect(
            throws: ShareError.invalidField(
                "url", "resolves to 10.0.0.7, a loopback, private, link-local or other non-public address ([hooks] allow_private_addresses)")
        ) {
            try await HookAddress.check("http://10.0.0.7/hook", allowPrivate: false)
        }
        let checked = try await HookAddress.check("http://127.0.0.1:9/hook", allowPrivate: true)
        #expect(checked.host == "127.0.0.1" && checked.address == "127.0.0.1")
        await #expect(throws: ShareError.self, "a name that does not resolve") {
            try await HookAddress.check("https://no-such-host.invalid/hook", allowPrivate: true)
        }
    }
}
