import Crypto
import Foundation
import ShareHistory

/// Standard Webhooks 1.0 signing: `v1,` and the base64 of HMAC-SHA256 of `id.timestamp.body` under each secret's
/// key, the signatures separated by spaces (two while a replaced secret still signs).
public enum WebhookSignature {
    public static func header(id: String, timestamp: Int64, body: Data, secrets: [String]) -> String {
        secrets.compactMap { sign(id: id, timestamp: timestamp, body: body, secret: $0) }.joined(separator: " ")
    }

    /// One signature; nil for a secret that is not `whsec_` and base64.
    public static func sign(id: String, timestamp: Int64, body: Data, secret: String) -> String? {
        guard let key = HookSecret.key(of: secret) else { return nil }
        var signed = Data("\(id).\(timestamp).".utf8)
        signed.append(body)
        let mac = HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: key))
        return "v1," + Data(mac).base64EncodedString()
    }
}
