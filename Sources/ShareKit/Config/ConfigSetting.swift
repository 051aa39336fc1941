import Foundation
import TOMLKit

/// The type a setting holds, and how to read it from TOML and from an environment variable.
struct ConfigValueKind<Value>: Sendable {
    let expected: String
    let fromTOML: @Sendable (any TOMLValueConvertible) -> Value?
    let fromText: @Sendable (String) -> Value?
}

extension ConfigValueKind where Value == String {
    static let string = ConfigValueKind(expected: "a string", fromTOML: { $0.type == .string ? $0.string : nil }, fromText: { $0 })
}

extension ConfigValueKind where Value == Bool {
    static let bool = ConfigValueKind(
        expected: "true or false", fromTOML: { $0.type == .bool ? $0.bool : nil },
        fromText: { ["true": true, "false": false][$0] })
}

extension ConfigValueKind where Value == Int {
    static let integer = ConfigValueKind(expected: "an integer", fromTOML: { $0.type == .int ? $0.int : nil }, fromText: { Int($0) })
}

extension ConfigValueKind where Value == [Int] {
    /// A TOML array of integers; in the environment, a comma-separated list.
    static let integers = ConfigValueKind(
        expected: "an array of integers",
        fromTOML: { value in
            guard value.type == .array, let array = value.array else { return nil }
            var integers: [Int] = []
            for element in array {
                guard element.type == .int, let integer = element.int else { return nil }
                integers.append(integer)
            }
            return integers
        },
        fromText: { text in
            let parts = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            return parts.contains(nil) ? nil : parts.compactMap { $0 }
        })
}

extension ConfigValueKind where Value == [String] {
    /// A TOML array of strings; in the environment, a comma-separated list.
    static let strings = ConfigValueKind(
        expected: "an array of strings",
        fromTOML: { value in
            guard value.type == .array, let array = value.array else { return nil }
            var strings: [String] = []
            for element in array {
                guard element.type == .string, let string = element.string else { return nil }
                strings.append(string)
            }
            return strings
        },
        fromText: { text in
            text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        })
}

extension ConfigValueKind where Value == [String: [String]] {
    /// A TOML table whose values are strings or arrays of strings (`[auth.users] alice = "SECRET"` or
    /// `bob = ["OLD", "NEW"]`); in the environment, `key=value` pairs separated by commas, a key given once a value.
    static let stringsTable = ConfigValueKind(
        expected: "a table of strings or arrays of strings",
        fromTOML: { value in
            guard value.type == .table, let table = value.table else { return nil }
            var values: [String: [String]] = [:]
            for key in table.keys {
                guard let element = table[key] else { return nil }
                if element.type == .string, let string = element.string {
                    values[key] = [string]
                } else if let strings = ConfigValueKind<[String]>.strings.fromTOML(element) {
                    values[key] = strings
                } else {
                    return nil
                }
            }
            return values
        },
        fromText: { text in
            var values: [String: [String]] = [:]
            for pair in text.split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { return nil }
                values[parts[0].trimmingCharacters(in: .whitespaces), default: []].append(parts[1].trimmingCharacters(in: .whitespaces))
            }
            return values
        })
}

extension ConfigValueKind where Value == [String: Int] {
    /// A TOML table whose values are integers (`[auth.quota] alice = 5000000000`); in the environment,
    /// `key=value` pairs separated by commas.
    static let integersTable = ConfigValueKind(
        expected: "a table of integers",
        fromTOML: { value in
            guard value.type == .table, let table = value.table else { return nil }
            var values: [String: Int] = [:]
            for key in table.keys {
                guard let element = table[key], element.type == .int, let number = element.int else { return nil }
                values[key] = number
            }
            return values
        },
        fromText: { text in
            var values: [String: Int] = [:]
            for pair in text.split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, let number = Int(parts[1].trimmingCharacters(in: .whitespaces)) else { return nil }
                values[parts[0].trimmingCharacters(in: .whitespaces)] = number
            }
            return values
        })
}

/// One key of `share.toml`: its name, its environment variable, and how it validates and stores a value.
struct ConfigSetting: Sendable {
    let table: String
    let key: String
    let expected: String
    /// Stores a TOML value; false when the value has the wrong type.
    let applyTOML: @Sendable (inout ShareConfig, any TOMLValueConvertible, _ baseDirectory: String) throws -> Bool
    /// Stores an environment variable's text; false when it cannot be read as the setting's type.
    let applyText: @Sendable (inout ShareConfig, String, _ baseDirectory: String) throws -> Bool

    init<Value>(
        _ table: String, _ key: String, _ kind: ConfigValueKind<Value>,
        set: @escaping @Sendable (inout ShareConfig, Value, _ baseDirectory: String) throws -> Void
    ) {
        self.table = table
        self.key = key
        self.expected = kind.expected
        applyTOML = { config, value, base in
            guard let typed = kind.fromTOML(value) else { return false }
            try set(&config, typed, base)
            return true
        }
        applyText = { config, text, base in
            guard let typed = kind.fromText(text) else { return false }
            try set(&config, typed, base)
            return true
        }
    }

    var name: String { "\(table).\(key)" }

    /// `SHARE_<TABLE>_<KEY>`, except the client's keys, which are short: `SHARE_SERVER`, `SHARE_TOKEN`, `SHARE_TIMEZONE`.
    var environmentVariable: String {
        table == "client" ? "SHARE_\(key.uppercased())" : "SHARE_\(table.uppercased())_\(key.uppercased())"
    }
}
