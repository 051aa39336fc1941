// swift-tools-version:6.2
import PackageDescription

/// `share` starts in a third less time with the Swift runtime and Foundation linked into it (docs/benchmarks.md): the
/// archives are named, in one group, because the modules it is compiled against are those of the shared libraries.
let staticSwiftRuntime =
    ["-static-stdlib", "-Xlinker", "--start-group"]
    + [
        "Foundation", "FoundationEssentials", "FoundationInternationalization", "CoreFoundation", "_FoundationICU", "_FoundationCShims",
        "_FoundationCollections", "swiftDispatch", "dispatch", "BlocksRuntime", "swiftSynchronization", "swift_Concurrency",
        "swift_StringProcessing", "swift_RegexParser", "swiftGlibc", "swiftCore",
    ].flatMap { ["-Xlinker", "-l\($0)"] } + ["-Xlinker", "--end-group"]

let package = Package(
    name: "share",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "shared", targets: ["shared"]),
        .executable(name: "share", targets: ["share"]),
    ],
    dependencies: [
        // `traits: []` keeps SwiftPM from rebuilding Hummingbird whenever build and test alternate.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/LebJe/TOMLKit.git", from: "0.6.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    ],
    targets: [
        /// Wire types and the configuration model, shared by the daemon and the CLI.
        .target(
            name: "ShareKit",
            dependencies: ["CZlib", .product(name: "TOMLKit", package: "TOMLKit")]
        ),
        /// The history whatever stores it: its query, pages, changes and rules, the store protocols, the read lanes.
        /// Links no database driver.
        .target(
            name: "ShareHistory",
            dependencies: [
                "ShareKit", .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        /// The share history in SQLite: opening and migrating, the listing planner, backups and checks.
        .target(
            name: "ShareSQLite",
            dependencies: [
                "ShareKit", "ShareHistory", "SharePictures", "CMalloc", "CFileSync", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "_NIOFileSystem", package: "swift-nio"),
            ],
            plugins: ["EmbedTexts"]
        ),
        /// The share history on PostgreSQL, for several `shared` behind a balancer: the same contract as `ShareSQLite`'s
        /// SQLite database.
        .target(
            name: "SharePostgres",
            dependencies: [
                "ShareKit", "ShareHistory", "ShareChildProcess", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            plugins: ["EmbedTexts"]
        ),
        /// Hummingbird routes, middleware and the mapping of domain errors to problem details.
        .target(
            name: "ShareServer",
            dependencies: [
                "ShareKit", "ShareHistory", "ShareHooks", "SharePictures", "ShareThumbnails", "CMalloc", "CPeerCredentials",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            plugins: ["EmbedTexts"]
        ),
        /// glibc's `malloc_trim` and arena limit, which Swift's Glibc module leaves out.
        .systemLibrary(name: "CMalloc"),
        .systemLibrary(name: "CFileSync"),
        /// zlib's CRC-32, which the entries of a share's ZIP carry.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        /// The peer credentials of a unix socket (`struct ucred`), which Swift's Glibc leaves out.
        .systemLibrary(name: "CPeerCredentials"),
        /// glibc's spawn file actions that close every other descriptor and change the folder, which Swift's Glibc
        /// leaves out.
        .systemLibrary(name: "CSpawn"),
        /// Programs run as children (`pg_dump`; the tests' daemons), without Foundation's `Process`.
        .target(name: "ShareChildProcess", dependencies: ["CSpawn"]),
        /// libcurl, with typed wrappers for its variadic calls.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        /// libvips, with typed wrappers for its variadic calls.
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        /// Thumbnails made from pictures, safely: the formats, the limits, libvips.
        /// What a picture's bytes say, read without a decoder: its format, its header's size, the memory decoding it takes,
        /// whether it is a thumbnail as shared makes them.
        /// An S3-compatible object store: its requests signed (AWS Signature Version 4), the calls the service makes.
        .target(
            name: "ShareObjectStore",
            dependencies: [
                "ShareKit", "ShareHistory",
                .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .target(
            name: "ShareHooks",
            dependencies: [
                "ShareKit", "ShareHistory", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(name: "SharePictures", dependencies: ["ShareKit"]),
        .target(name: "ShareThumbnails", dependencies: ["ShareKit", "SharePictures", "CVips"]),
        /// The HTTP client of `share`: the API as typed calls over libcurl.
        .target(name: "ShareClient", dependencies: ["ShareKit", "CCurl"]),
        /// The `share` command line: commands, options, and output for people and scripts.
        .target(
            name: "ShareCLI",
            dependencies: ["ShareKit", "ShareClient", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "share", dependencies: ["ShareCLI"], linkerSettings: [.unsafeFlags(staticSwiftRuntime, .when(platforms: [.linux]))]),
        .executableTarget(
            name: "shared",
            dependencies: [
                "ShareServer", "ShareHistory", "ShareSQLite", "SharePostgres", "ShareObjectStore", "ShareKit",
                .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
        /// Turns `migrations/*.sql` and `openapi.yaml` into Swift source so the binaries carry them.
        .executableTarget(name: "TextEmbedder"),
        .plugin(name: "EmbedTexts", capability: .buildTool(), dependencies: ["TextEmbedder"]),
        /// Helpers several test targets share.
        .target(name: "ShareTestSupport", dependencies: ["ShareChildProcess"], path: "Tests/ShareTestSupport"),
        /// The stores the conformance suite runs against (SQLite and a PostgreSQL test cluster), and what tests ask them.
        .target(
            name: "StoreTestSupport",
            dependencies: [
                "ShareKit", "ShareHistory", "ShareSQLite", "SharePostgres", "ShareObjectStore", "ShareTestSupport", "ShareChildProcess",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            path: "Tests/StoreTestSupport"
        ),
        .testTarget(name: "ShareKitTests", dependencies: ["ShareKit", "ShareTestSupport", "ShareChildProcess"]),
        .testTarget(
            name: "ShareHooksTests",
            dependencies: [
                "ShareHooks", "ShareHistory", "ShareKit", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]),
        .testTarget(
            name: "ShareObjectStoreTests",
            dependencies: [
                "ShareObjectStore", "ShareTestSupport", "StoreTestSupport", "ShareChildProcess",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "ShareHistoryTests",
            dependencies: ["ShareHistory", "ShareKit", "ShareTestSupport", "StoreTestSupport", .product(name: "Logging", package: "swift-log")]
        ),
        /// What every store promises, written once and run on each (`Backend.allCases`): a new store passes it or shows
        /// where it does not.
        .testTarget(
            name: "StoreConformanceTests",
            dependencies: [
                "ShareHistory", "ShareKit", "StoreTestSupport", "ShareTestSupport", .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "SQLiteStoreTests",
            dependencies: [
                "ShareHistory", "ShareSQLite", "StoreTestSupport", "ShareTestSupport", "ShareChildProcess",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "PostgresStoreTests",
            dependencies: [
                "ShareHistory", "SharePostgres", "ShareSQLite", "ShareObjectStore", "StoreTestSupport", "ShareTestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "ShareServerTests",
            dependencies: [
                "ShareServer", "ShareHistory", "ShareSQLite", "ShareKit", "ShareTestSupport", "StoreTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"), .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ]
        ),
        .testTarget(name: "ShareThumbnailsTests", dependencies: ["ShareThumbnails", "SharePictures", "ShareKit", "ShareTestSupport"]),
        .testTarget(name: "ShareCLITests", dependencies: ["ShareCLI", "ShareClient", "ShareKit", "ShareTestSupport"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "ShareKit", "ShareTestSupport", "StoreTestSupport", "ShareChildProcess", "ShareObjectStore",
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "NIOCore", package: "swift-nio"),
            ]),
    ]
)
