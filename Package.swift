// swift-tools-version:6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "trove",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "trove", targets: ["trove"]),
        .executable(name: "trove-bench", targets: ["trove-bench"]),
        .executable(name: "trove-bare", targets: ["trove-bare"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    ],
    targets: [
        // Domain: Foundation only.
        .target(name: "Accounts", swiftSettings: swiftSettings),
        // Saving an edit over what another device saved meanwhile, shared by the apps whose records two devices edit.
        .target(name: "Edits", swiftSettings: swiftSettings),
        .target(name: "ObliqueStrategies", dependencies: ["Edits"], swiftSettings: swiftSettings),
        .target(name: "MagneticPoetry", dependencies: ["Pictures", "Edits"], swiftSettings: swiftSettings),
        // Recognising pictures by their bytes (uploads), shared by Magnetic Poetry and Choose Your Destiny.
        .target(name: "Pictures", swiftSettings: swiftSettings),
        // Optimized even in debug builds: its indexes over 235,000 cities are built at every start, and
        // `make run` and the tests use debug builds (a release build costs 20+ minutes here).
        .target(
            name: "CityRoulette", dependencies: ["Geography"],
            swiftSettings: swiftSettings + [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .target(name: "YogiYogini", dependencies: ["Geography", "Edits"], swiftSettings: swiftSettings),
        .target(name: "ChooseYourDestiny", dependencies: ["Pictures"], swiftSettings: swiftSettings),
        // Reading uploaded zip archives (a story with its pictures): inflate and the zip directory, no dependencies.
        .target(name: "ZipArchive", dependencies: ["Zlib"], swiftSettings: swiftSettings),
        // The system's zlib (already linked through async-http-client), and a small Swift face on it.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "Zlib", dependencies: ["CZlib"], swiftSettings: swiftSettings),
        // Distances on the globe, shared by City Roulette and YogiYogini.
        .target(name: "Geography", swiftSettings: swiftSettings + [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // Current weather in one shape for every provider, and its cache; shared by City Roulette and YogiYogini.
        .target(name: "Weather", swiftSettings: swiftSettings),
        // Card preview images: glyph atlas, layout, PNG encoder. Foundation only.
        .target(name: "CardImage", dependencies: ["Zlib"], resources: [.copy("Resources")], swiftSettings: swiftSettings),

        // Edges.
        .target(
            name: "DatabaseDrivers",
            dependencies: [
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Storage",
            dependencies: [
                "Accounts", "ObliqueStrategies", "MagneticPoetry", "CityRoulette", "YogiYogini", "ChooseYourDestiny", "Pictures",
                "DatabaseDrivers", "Zlib", "Edits",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Providers",
            dependencies: [
                "Weather", "YogiYogini", "Geography", "ChooseYourDestiny", "CityRoulette",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WebApp",
            dependencies: [
                "Accounts", "ObliqueStrategies", "MagneticPoetry", "CityRoulette", "YogiYogini", "ChooseYourDestiny", "ZipArchive", "Zlib",
                "Geography", "Weather", "Pictures",
                "CardImage",
                "Storage", "DatabaseDrivers", "Providers",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            resources: [.copy("Templates"), .copy("Public"), .copy("APIDocument")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "trove",
            dependencies: [
                "WebApp", "Storage", "DatabaseDrivers", "ObliqueStrategies", "MagneticPoetry", "CityRoulette", "ChooseYourDestiny",
                "Providers",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // `make bench`: City Roulette's searches in process, each against its baseline (docs/BENCHMARKS.md).
        .executableTarget(name: "trove-bench", dependencies: ["CityRoulette", "Geography"], swiftSettings: swiftSettings),
        // The bare Hummingbird baseline `make bench` measures Trove's /health against.
        .executableTarget(
            name: "trove-bare",
            dependencies: [
                "WebApp", .product(name: "Hummingbird", package: "hummingbird"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings),

        .target(
            name: "TestSupport",
            dependencies: [
                "DatabaseDrivers", "Storage", "WebApp", "ObliqueStrategies", "CityRoulette",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "AccountsTests", dependencies: ["Accounts"], swiftSettings: swiftSettings),
        .testTarget(name: "EditsTests", dependencies: ["Edits"], swiftSettings: swiftSettings),
        .testTarget(name: "ObliqueStrategiesTests", dependencies: ["ObliqueStrategies"], swiftSettings: swiftSettings),
        .testTarget(name: "MagneticPoetryTests", dependencies: ["MagneticPoetry"], swiftSettings: swiftSettings),
        .testTarget(name: "PicturesTests", dependencies: ["Pictures"], swiftSettings: swiftSettings),
        .testTarget(name: "CityRouletteTests", dependencies: ["CityRoulette", "Geography"], swiftSettings: swiftSettings),
        .testTarget(name: "YogiYoginiTests", dependencies: ["YogiYogini"], swiftSettings: swiftSettings),
        .testTarget(name: "ChooseYourDestinyTests", dependencies: ["ChooseYourDestiny"], swiftSettings: swiftSettings),
        .testTarget(name: "ZipArchiveTests", dependencies: ["ZipArchive", "Zlib", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "WeatherTests", dependencies: ["Weather"], swiftSettings: swiftSettings),
        .testTarget(
            name: "ProvidersTests",
            dependencies: [
                "Providers", "Weather", "YogiYogini", "ChooseYourDestiny",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "CardImageTests", dependencies: ["CardImage", "Zlib"], swiftSettings: swiftSettings),
        .testTarget(
            name: "StorageTests",
            dependencies: [
                "Storage", "DatabaseDrivers", "Accounts", "ObliqueStrategies", "MagneticPoetry", "CityRoulette", "YogiYogini",
                "ChooseYourDestiny",
                "TestSupport", "WebApp", "Zlib",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WebAppTests",
            dependencies: [
                "WebApp", "Storage", "DatabaseDrivers", "Accounts", "ObliqueStrategies", "MagneticPoetry", "CityRoulette", "YogiYogini",
                "ChooseYourDestiny", "Weather", "TestSupport", "Zlib",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
