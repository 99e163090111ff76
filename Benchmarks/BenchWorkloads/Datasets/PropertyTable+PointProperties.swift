import BenchFormats
import MapClustering

extension PropertyTable {
  /// The clustering library's form of these columns (``PointProperties``),
  /// sharing their arrays: no value a point is copied.
  ///
  /// - Throws: never for a table a reader or a generator made (one column a
  ///   name, one value a point, codes in their tables, scales in 0...9);
  ///   ``ClusteringError/invalidProperties(_:)`` otherwise.
  package func pointProperties() throws(ClusteringError) -> PointProperties {
    var p = PointProperties()
    for column in columns {
      switch column {
      case .category(let c): try p.addCategory(c.name, codes: c.codes, values: c.values)
      case .decimal(let c): try p.addNumber(c.name, units: c.units, scale: c.scale)
      }
    }
    return p
  }
}
