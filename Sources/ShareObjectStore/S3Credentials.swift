/// The key an S3-compatible store knows a client by, and the secret it signs with.
public struct S3Credentials: Sendable, Equatable {
    public var accessKeyID: String
    public var secretAccessKey: String

    public init(accessKeyID: String, secretAccessKey: String) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
    }
}

extension S3Credentials: CustomStringConvertible {
    /// The key's id only: a secret never reaches a log.
    public var description: String { "S3Credentials(\(accessKeyID))" }
}
