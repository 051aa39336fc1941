import Foundation

extension ConfigSetting {
    /// The keys of `[files]`.
    static let files: [ConfigSetting] = [
        ConfigSetting("files", "store", .string) { config, text, _ in
            guard let store = FilesSettings.Store(rawValue: text) else {
                throw InvalidSetting(reason: "must be \"local\" (with the database) or \"s3\" (an S3-compatible object store), got '\(text)'")
            }
            config.files.store = store
        },
        ConfigSetting("files", "s3_endpoint", .string) { config, url, _ in
            guard let parts = URLComponents(string: url), ["http", "https"].contains(parts.scheme?.lowercased()), let host = parts.host,
                !host.isEmpty, parts.path.isEmpty || parts.path == "/", parts.query == nil, parts.user == nil
            else {
                throw InvalidSetting(
                    reason: "expected the store's http:// or https:// URL with no path, such as https://s3.eu-central-1.amazonaws.com, got '\(url)'")
            }
            config.files.s3Endpoint = url
        },
        ConfigSetting("files", "s3_bucket", .string) { config, name, _ in
            let allowed = name.utf8.allSatisfy {
                (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
            }
            let ends = [name.utf8.first, name.utf8.last].allSatisfy { $0.map { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) } ?? false }
            guard (3...63).contains(name.count), allowed, ends else {
                throw InvalidSetting(
                    reason:
                        "a bucket name is 3 to 63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit, got '\(name)'"
                )
            }
            config.files.s3Bucket = name
        },
        ConfigSetting("files", "s3_region", .string) { config, region, _ in
            guard !region.isEmpty, region.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") })
            else {
                throw InvalidSetting(reason: "expected a region such as us-east-1, got '\(region)'")
            }
            config.files.s3Region = region
        },
        ConfigSetting("files", "s3_prefix", .string) { config, prefix, _ in
            guard !prefix.hasPrefix("/"), prefix.utf8.count <= 512,
                !prefix.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else {
                throw InvalidSetting(reason: "expected a key prefix such as \"share/\", not starting with / and without control characters")
            }
            config.files.s3Prefix = prefix.isEmpty || prefix.hasSuffix("/") ? prefix : prefix + "/"
        },
        ConfigSetting("files", "s3_path_style", .bool) { config, flag, _ in
            config.files.s3PathStyle = flag
        },
        ConfigSetting("files", "s3_access_key_id", .string) { config, id, _ in
            guard id.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw InvalidSetting(reason: "an access key id has no spaces or control characters")
            }
            config.files.s3AccessKeyID = id
        },
        ConfigSetting("files", "s3_secret_access_key_file", .string) { config, path, base in
            config.files.s3SecretAccessKeyFile = path.isEmpty ? nil : ConfigLoader.absolutePath(path, relativeTo: base)
        },
        ConfigSetting("files", "downloads", .string) { config, text, _ in
            guard let mode = FilesSettings.Downloads(rawValue: text) else {
                throw InvalidSetting(reason: "must be \"proxy\" (streamed by shared) or \"redirect\" (a presigned URL), got '\(text)'")
            }
            config.files.downloads = mode
        },
    ]
}
