// swift-tools-version:6.0
// SpatialBench: 2-D spatial indexes for map apps, and the harness that compares them.
// No package dependencies: the Swift toolchain only.
import PackageDescription

let package = Package(
  name: "SpatialBench",
  products: [
    // What a map app imports: geometry, Web Mercator, the protocol and the indexes.
    .library(name: "SpatialIndexes", targets: ["SpatialIndexes"]),
    // Viewports, grid clustering and its strategies, the marker diff and taps.
    .library(name: "MapClustering", targets: ["MapClustering"]),
    .executable(name: "bench", targets: ["bench"]),
  ],
  targets: [
    // A C header the k-d tree's queries use for cache prefetch hints.
    .target(name: "_SpatialIndexesShims"),
    .target(name: "SpatialIndexes", dependencies: ["_SpatialIndexesShims"]),
    .target(name: "MapClustering", dependencies: ["SpatialIndexes"]),

    // The benchmark side. Formats: the files bench reads and writes (CSV, GeoJSON).
    .target(
      name: "BenchFormats", dependencies: ["SpatialIndexes"], path: "Benchmarks/BenchFormats"),
    // Timing, statistics, reports, comparison and pictures.
    .target(
      name: "BenchHarness", dependencies: ["SpatialIndexes", "MapClustering", "BenchFormats"],
      path: "Benchmarks/BenchHarness"),
    // Generators, sessions, the workload registry and the run engine.
    .target(
      name: "BenchWorkloads",
      dependencies: ["SpatialIndexes", "MapClustering", "BenchFormats", "BenchHarness"],
      path: "Benchmarks/BenchWorkloads"),
    // The command line.
    .target(
      name: "BenchCommands",
      dependencies: ["SpatialIndexes", "MapClustering", "BenchFormats", "BenchHarness", "BenchWorkloads"],
      path: "Benchmarks/BenchCommands"),
    .executableTarget(
      name: "bench", dependencies: ["BenchCommands"], path: "Benchmarks/bench"),
    // The README's library example, compiled in CI so it cannot rot.
    .executableTarget(
      name: "MapExample", dependencies: ["SpatialIndexes", "MapClustering"], path: "Examples/MapExample"),

    .target(
      name: "_SpatialTestSupport", dependencies: ["SpatialIndexes", "MapClustering", "BenchWorkloads"],
      path: "Tests/_SpatialTestSupport"),
    .testTarget(
      name: "SpatialIndexesTests", dependencies: ["SpatialIndexes", "_SpatialTestSupport"]),
    .testTarget(
      name: "MapClusteringTests",
      dependencies: ["MapClustering", "BenchWorkloads", "_SpatialTestSupport"]),
    .testTarget(
      name: "BenchFormatsTests",
      dependencies: ["BenchFormats", "BenchWorkloads", "_SpatialTestSupport"]),
    .testTarget(
      name: "BenchWorkloadsTests",
      dependencies: ["BenchWorkloads", "MapClustering", "_SpatialTestSupport"]),
    .testTarget(
      name: "BenchHarnessTests", dependencies: ["BenchHarness", "_SpatialTestSupport"]),
    .testTarget(
      name: "BenchCommandsTests",
      dependencies: [
        "BenchCommands", "BenchHarness", "BenchWorkloads", "BenchFormats", "MapClustering",
        "SpatialIndexes", "_SpatialTestSupport",
      ]),
  ]
)
