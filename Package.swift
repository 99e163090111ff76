// swift-tools-version:6.0
// SpatialBench: 2-D spatial indexes for map apps, and the harness that compares them.
// No package dependencies: the Swift toolchain only.
import PackageDescription

let package = Package(
  name: "SpatialBench",
  products: [
    // What a map app imports: points, rectangles, the protocol, the indexes, k-nearest.
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
    // The seeded generator every random choice comes from (`package`: no
    // app sees it), for the bench and the libraries' tests alike.
    .target(name: "_SeededRandom"),

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
      dependencies: ["SpatialIndexes", "MapClustering", "BenchFormats", "BenchHarness", "_SeededRandom"],
      path: "Benchmarks/BenchWorkloads"),
    // The command line.
    .target(
      name: "BenchCommands",
      dependencies: [
        "SpatialIndexes", "MapClustering", "BenchFormats", "BenchHarness", "BenchWorkloads", "_SeededRandom",
      ],
      path: "Benchmarks/BenchCommands"),
    .executableTarget(
      name: "bench", dependencies: ["BenchCommands"], path: "Benchmarks/bench"),
    // The README's library example, compiled in CI so it cannot rot.
    .executableTarget(
      name: "MapExample", dependencies: ["SpatialIndexes", "MapClustering"], path: "Examples/MapExample"),

    // The libraries' tests and their support stand on the libraries alone
    // (LibraryTestLayeringTests keeps it so): what they check is what an app gets.
    .target(
      name: "_SpatialTestSupport", dependencies: ["SpatialIndexes", "MapClustering", "_SeededRandom"],
      path: "Tests/_SpatialTestSupport"),
    .testTarget(
      name: "SpatialIndexesTests", dependencies: ["SpatialIndexes", "_SeededRandom", "_SpatialTestSupport"]),
    .testTarget(
      name: "MapClusteringTests",
      dependencies: ["MapClustering", "SpatialIndexes", "_SeededRandom", "_SpatialTestSupport"]),

    // The bench's tests, and what they share beyond the libraries' support.
    .target(
      name: "_BenchTestSupport",
      dependencies: ["BenchFormats", "BenchHarness", "BenchWorkloads", "SpatialIndexes", "_SeededRandom"],
      path: "Tests/_BenchTestSupport"),
    .testTarget(
      name: "BenchFormatsTests",
      dependencies: ["BenchFormats", "BenchWorkloads", "_SeededRandom", "_SpatialTestSupport"]),
    .testTarget(
      name: "BenchWorkloadsTests",
      dependencies: [
        "BenchWorkloads", "MapClustering", "_SeededRandom", "_SpatialTestSupport", "_BenchTestSupport",
      ]),
    .testTarget(
      name: "BenchHarnessTests",
      dependencies: ["BenchHarness", "_SeededRandom", "_SpatialTestSupport", "_BenchTestSupport"]),
    .testTarget(
      name: "BenchCommandsTests",
      dependencies: [
        "BenchCommands", "BenchHarness", "BenchWorkloads", "BenchFormats", "MapClustering",
        "SpatialIndexes", "_SeededRandom", "_SpatialTestSupport", "_BenchTestSupport",
      ]),
  ]
)
