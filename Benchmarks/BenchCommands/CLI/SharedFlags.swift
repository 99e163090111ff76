import BenchWorkloads
import SpatialIndexes

/// The flags several commands share, each read and checked in one place.
/// A command's table names the field each one fills; the usage words are a
/// default a command may replace (``Flag/explained(_:)``) where its meaning
/// differs.
extension Flag {
  /// `--seed S`: a whole number in 0...2^64-1.
  static func seed(_ field: WritableKeyPath<Options, UInt64>, help: String = "seed of every random choice (default 42)")
    -> Flag
  {
    Flag("--seed", "S", help: help) { (o: inout Options, v: FlagValue) throws(UsageError) in
      guard let seed = UInt64(v.text) else { throw v.error("--seed \"\(v.text)\" is not a non-negative whole number") }
      o[keyPath: field] = seed
    }
  }

  /// `--dataset NAME|FILE`: resolved when loaded (``Datasets/load(_:counts:seed:bytesPerPoint:)``).
  static func dataset(
    _ field: WritableKeyPath<Options, String>,
    help: String = "bundled name, generator name or a points file: .csv, .geojson,\n.f64 (lon,lat float64 pairs) (default places)"
  ) -> Flag {
    Flag("--dataset", "NAME|FILE", help: help) { (o: inout Options, v: FlagValue) throws(UsageError) in
      o[keyPath: field] = v.text
    }
  }

  /// `--n COUNT[,COUNT…]`: one dataset per count.
  static func counts(_ field: WritableKeyPath<Options, [Int]?>) -> Flag {
    Flag(
      "--n", "COUNT[,COUNT…]", help: "points for a generator; for a file, a seeded sample (default all rows)"
    ) { (o: inout Options, v: FlagValue) throws(UsageError) in
      o[keyPath: field] = try v.integers(in: 0...RunOptions.maximumN)
    }
  }

  /// `--n COUNT`: one count only.
  static func count(_ field: WritableKeyPath<Options, [Int]?>) -> Flag {
    Flag("--n", "COUNT", help: "points for a generator; for a file, a seeded sample") {
      (o: inout Options, v: FlagValue) throws(UsageError) in
      o[keyPath: field] = [try v.integer(in: 0...RunOptions.maximumN)]
    }
  }

  /// `--index NAME[,NAME…]|all`: indexes of the catalogue.
  static func indexes(
    _ field: WritableKeyPath<Options, [String]>,
    help: String = "indexes to run (default all; bench list --indexes)"
  ) -> Flag {
    Flag("--index", "NAME[,NAME…]|all", help: help) { (o: inout Options, v: FlagValue) throws(UsageError) in
      o[keyPath: field] = try indexNames(v.text, command: v.command)
    }
  }

  /// `--index NAME`: one index of the catalogue.
  static func index(_ field: WritableKeyPath<Options, String?>, help: String) -> Flag {
    oneIndex(help: help) { $0[keyPath: field] = $1 }
  }

  /// `--index NAME` into a field with a default.
  static func index(_ field: WritableKeyPath<Options, String>, help: String) -> Flag {
    oneIndex(help: help) { $0[keyPath: field] = $1 }
  }

  /// The one-name `--index`, whatever the field it fills.
  private static func oneIndex(help: String, _ store: @escaping (inout Options, String) -> Void) -> Flag {
    Flag("--index", "NAME", help: help) { (o: inout Options, v: FlagValue) throws(UsageError) in
      let names = try indexNames(v.text, command: v.command)
      guard names.count == 1 else { throw v.error("--index takes one name here") }
      store(&o, names[0])
    }
  }

  /// `--param KEY=V[,V…]`, repeatable: a sweep, one row per value.
  static func param(
    _ field: WritableKeyPath<Options, [ParameterSweep]>,
    help: String = "an index parameter; several values make a sweep (one row each);\ngiven once per parameter"
  ) -> Flag {
    Flag("--param", "KEY=V[,V…]", help: help, repeatable: true) {
      (o: inout Options, v: FlagValue) throws(UsageError) in
      o[keyPath: field].append(try .parse(v.text, command: v.command))
    }
  }

  /// `--threads N|auto`: the `threads` parameter (see ``threadsSweep(_:command:)``).
  static func threads(_ field: WritableKeyPath<Options, [ParameterSweep]>) -> Flag {
    Flag(
      "--threads", "N|auto",
      help: "build threads of the indexes that build in parallel (the k-d tree,\nthe grid, the cell tree, the quadtree's bulk load; default auto:\nevery core; the index is the same), as --param threads=N"
    ) { (o: inout Options, v: FlagValue) throws(UsageError) in
      o[keyPath: field].append(try threadsSweep(v.text, command: v.command))
    }
  }

  /// `--screen WxH`: whole points, each side 1...4096.
  static func screen(
    _ field: WritableKeyPath<Options, (width: Double, height: Double)>,
    help: String = "screen size in points (default 390x844; at most 4096x4096)"
  ) -> Flag {
    Flag("--screen", "WxH", help: help) { (o: inout Options, v: FlagValue) throws(UsageError) in
      o[keyPath: field] = try RunOptions.screenSize(v.text, v.command)
    }
  }

  /// `--fps HZ`: frames a second, 1...1000.
  static func fps(_ field: WritableKeyPath<Options, Double>, help: String) -> Flag {
    Flag("--fps", "HZ", help: help) { (o: inout Options, v: FlagValue) throws(UsageError) in
      o[keyPath: field] = Double(try v.integer(in: 1...1000))
    }
  }

  /// `--moving SHARE`: the live workload's share of points moving a frame.
  static func moving(_ field: WritableKeyPath<Options, Double>) -> Flag {
    Flag("--moving", "SHARE", help: "live: share of the points that move each frame (default 0.01)") {
      (o: inout Options, v: FlagValue) throws(UsageError) in
      o[keyPath: field] = try movingShare(v.text, command: v.command)
    }
  }

  /// `--steps COUNT` in `range`.
  static func steps(
    _ field: WritableKeyPath<Options, Int>, in range: ClosedRange<Int> = 1...10_000_000,
    help: String = "steps of the pan-and-zoom session (default 200)"
  ) -> Flag {
    Flag("--steps", "COUNT", help: help) { (o: inout Options, v: FlagValue) throws(UsageError) in
      o[keyPath: field] = try v.integer(in: range)
    }
  }

  /// `--repeat R` in `range`.
  static func repeats(
    _ field: WritableKeyPath<Options, Int>, in range: ClosedRange<Int>, help: String
  ) -> Flag {
    Flag("--repeat", "R", help: help) { (o: inout Options, v: FlagValue) throws(UsageError) in
      o[keyPath: field] = try v.integer(in: range)
    }
  }

  /// A flag whose value is kept as written (a file name, a connection string).
  static func text(
    _ name: String, _ placeholder: String, _ field: WritableKeyPath<Options, String?>, help: String
  ) -> Flag {
    Flag(name, placeholder, help: help) { (o: inout Options, v: FlagValue) throws(UsageError) in
      o[keyPath: field] = v.text
    }
  }

  /// `--out FILE`.
  static func out(_ field: WritableKeyPath<Options, String?>, _ placeholder: String, help: String) -> Flag {
    text("--out", placeholder, field, help: help)
  }

  /// A switch that sets `field`.
  static func toggle(_ name: String, _ field: WritableKeyPath<Options, Bool>, help: String) -> Flag {
    Flag(name, help: help) { (o: inout Options, _: FlagValue) throws(UsageError) in o[keyPath: field] = true }
  }

  /// `--quiet`.
  static func quiet(_ field: WritableKeyPath<Options, Bool>, help: String = "no progress on stderr") -> Flag {
    toggle("--quiet", field, help: help)
  }
}
