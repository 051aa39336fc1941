/// A configuration problem, worded for the person who wrote the file or set the variable.
public struct ConfigError: Error, CustomStringConvertible, Equatable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Thrown by a setting that got a value of the right type but an unusable content.
public struct InvalidSetting: Error {
    public let reason: String
}
