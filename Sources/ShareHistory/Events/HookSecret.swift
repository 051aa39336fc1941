import Foundation

/// A webhook's signing secret, as Standard Webhooks writes one: `whsec_` and the base64 of 32 random bytes.
public enum HookSecret {
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return "whsec_" + Data(bytes).base64EncodedString()
    }

    /// The key a secret stands for: the bytes its base64 holds after `whsec_`; nil for anything else.
    public static func key(of secret: String) -> Data? {
        guard secret.hasPrefix("whsec_") else { return nil }
        return Data(base64Encoded: String(secret.dropFirst("whsec_".count)))
    }

    /// A new webhook's id: 12 characters of base64url, about 72 random bits, never beginning with `-`, which a command
    /// line would read as an option (`share hooks log -h…` printed the help, `-x…` failed as a usage error).
    public static func newHookID() -> String {
        while true {
            let id = String(LinkToken.generate().prefix(12))
            if !id.hasPrefix("-") { return id }
        }
    }
}
