// swift-tools-version:6.0
// The fuzz targets, a package of their own: `swift build --sanitize=fuzzer`
// instruments every module, and the root package would not link an
// executable whose `main` libFuzzer supplies. The readers' modules are the
// root package's own folders (symbolic links in Sources/), built as they are.
// Run with `bash Fuzz/run.sh`.
import PackageDescription

let package = Package(
  name: "SpatialBenchFuzz",
  targets: [
    .target(name: "_SpatialIndexesShims", path: "Sources/_SpatialIndexesShims"),
    .target(
      name: "SpatialIndexes", dependencies: ["_SpatialIndexesShims"], path: "Sources/SpatialIndexes"),
    .target(name: "MapClustering", dependencies: ["SpatialIndexes"], path: "Sources/MapClustering"),
    .target(name: "BenchFormats", dependencies: ["SpatialIndexes"], path: "Sources/BenchFormats"),
    .target(
      name: "BenchHarness", dependencies: ["SpatialIndexes", "MapClustering", "BenchFormats"],
      path: "Sources/BenchHarness"),
    .executableTarget(
      name: "FuzzReaders",
      dependencies: ["BenchFormats", "BenchHarness", "MapClustering", "SpatialIndexes"],
      path: "FuzzReaders",
      swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
    // The saved-index opener: FUZZ_TARGET=FuzzSavedIndex bash Fuzz/run.sh
    .executableTarget(
      name: "FuzzSavedIndex", dependencies: ["SpatialIndexes"], path: "FuzzSavedIndex",
      swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
  ]
)
