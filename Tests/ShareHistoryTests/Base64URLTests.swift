import Foundation
import ShareTestSupport
import Testing

@testable import ShareHistory

/// Cursors travel in URLs as base64url: a wrong symbol or a lost byte would send a client to the wrong page.
@Suite struct Base64URLTests {
    /// Foundation's base64 with the URL alphabet and no padding: the reference the hand-written codec must match.
    private func reference(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    @Test func encodesAsTheReferenceDoesAndDecodesBack() {
        var generator = SplitMix(seed: 64)
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let encoded = Base64URL.encode(bytes)
            #expect(encoded == reference(bytes))
            #expect(Base64URL.decode(encoded) == bytes)
        }
    }

    @Test func refusesWhatNoEncodingProduces() {
        for text in ["a", "ab=", "a+b/", "abc!", "ab c", "AB", "AAB", "é"] {
            #expect(Base64URL.decode(text) == nil, "\(text)")
        }
        #expect(Base64URL.decode("") == [])
        #expect(Base64URL.decode("AA") == [0])
    }
}
