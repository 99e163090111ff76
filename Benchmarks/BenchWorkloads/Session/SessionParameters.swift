import MapClustering

/// What a ``ViewportSession`` does, with the defaults used by the benchmarks.
public struct SessionParameters: Hashable, Sendable {
  /// Viewports in the session, the starting view included. Default 1,000.
  public var steps: Int
  /// Seed of every choice in the session. Default 1.
  public var seed: UInt64
  /// The zoom levels the user can reach. Default 2...19: below 2 a phone
  /// shows the world more than once, above 19 map tiles stop.
  public var zoomRange: ClosedRange<Int>
  /// The zoom a jump to a search result lands at, uniform in this range and
  /// clamped to ``zoomRange``. Default 10...16 (a town to a street).
  public var jumpZoomRange: ClosedRange<Int>
  /// Screen size in points. Default ``Viewport/phone`` (390 × 844); a laptop
  /// browser is 1440 × 900.
  public var screenWidth: Double
  public var screenHeight: Double
  /// How often each kind of step happens. Default ``StepMix/default``.
  public var mix: StepMix

  /// - Precondition: `steps >= 1`; a positive finite screen size; `mix` valid
  ///   (see ``StepMix``). Checked when the session is made.
  public init(
    steps: Int = 1000,
    seed: UInt64 = 1,
    zoomRange: ClosedRange<Int> = 2...19,
    jumpZoomRange: ClosedRange<Int> = 10...16,
    screenWidth: Double = Viewport.phone.width,
    screenHeight: Double = Viewport.phone.height,
    mix: StepMix = .default
  ) {
    self.steps = steps
    self.seed = seed
    self.zoomRange = zoomRange
    self.jumpZoomRange = jumpZoomRange
    self.screenWidth = screenWidth
    self.screenHeight = screenHeight
    self.mix = mix
  }
}

/// Relative weights of the three kinds of move a person makes on a map.
///
/// The default, 60% pans, 25% pinch zooms and 15% jumps, models browsing:
/// mostly dragging around what is on screen, zooming now and then, and
/// sometimes searching and landing somewhere else. Pans query areas next to
/// the last one (cache-friendly for an index), jumps query cold areas.
/// Weights need not sum to 1; each must be finite and `>= 0`, their sum `> 0`.
public struct StepMix: Hashable, Sendable {
  /// Drag by ¼ to 1 screen in a uniformly random direction.
  public var pan: Double
  /// Pinch one level in or out (even odds), around the screen centre.
  public var zoom: Double
  /// Jump to a random data point (a search result) at a zoom of
  /// ``SessionParameters/jumpZoomRange``.
  public var jump: Double

  public init(pan: Double, zoom: Double, jump: Double) {
    self.pan = pan
    self.zoom = zoom
    self.jump = jump
  }

  /// 60% pan, 25% zoom, 15% jump.
  public static let `default` = StepMix(pan: 0.60, zoom: 0.25, jump: 0.15)

  /// The weights are finite, non-negative and not all zero.
  public var isValid: Bool {
    [pan, zoom, jump].allSatisfy { $0 >= 0 && $0.isFinite } && pan + zoom + jump > 0
  }
}
