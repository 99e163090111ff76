// swift-tools-version:6.0
// SpatialBench: 2-D spatial indexes for map apps, and the harness that compares them.
// No package dependencies: the Swift toolchain only.
import PackageDescription

let package = Package(
  name: "SpatialBench",
  products: [
    // What a map app imports: geometry, the protocol and the indexes.
    .library(name: "SpatialIndexes", targets: ["SpatialIndexes"]),
    // Seeded datasets, the CSV reader, Web Mercator viewports, clustering and taps.
    .library(name: "Workloads", targets: ["Workloads"]),
    .executable(name: "bench", targets: ["bench"]),
  ],
  targets: [
    // A C header the k-d tree's queries use for cache prefetch hints.
    .target(name: "_SpatialIndexesShims"),
    .target(name: "SpatialIndexes", dependencies: ["_SpatialIndexesShims"]),
    .target(name: "Workloads", dependencies: ["SpatialIndexes"]),
    .target(
      name: "BenchHarness", dependencies: ["SpatialIndexes", "Workloads"],
      path: "Benchmarks/BenchHarness"),
    .target(
      name: "BenchCommands", dependencies: ["SpatialIndexes", "Workloads", "BenchHarness"],
      path: "Benchmarks/BenchCommands"),
    .executableTarget(
      name: "bench", dependencies: ["BenchCommands"], path: "Benchmarks/bench"),

    .target(
      name: "_SpatialTestSupport", dependencies: ["SpatialIndexes", "Workloads"],
      path: "Tests/_SpatialTestSupport"),
    .testTarget(
      name: "SpatialIndexesTests", dependencies: ["SpatialIndexes", "_SpatialTestSupport"]),
    .testTarget(
      name: "WorkloadsTests", dependencies: ["Workloads", "_SpatialTestSupport"]),
    .testTarget(
      name: "BenchHarnessTests", dependencies: ["BenchHarness", "_SpatialTestSupport"]),
    .testTarget(
      name: "BenchCommandsTests",
      dependencies: [
        "BenchCommands", "BenchHarness", "Workloads", "SpatialIndexes", "_SpatialTestSupport",
      ]),
  ]
)
