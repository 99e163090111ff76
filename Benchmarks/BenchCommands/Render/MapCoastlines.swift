import BenchFormats
import BenchHarness
import BenchWorkloads

/// The world's coastlines that `bench render` and the HTML pages draw under
/// the markers: `datasets/coastlines_110m.txt`, Natural Earth's 1:110m
/// coastline (provenance and format in datasets/README.md).
///
/// The outline only helps a reader place the markers; the graticule still
/// says where they are. So a missing or bad file never fails a command,
/// least of all at the end of a long `bench run`: the maps are drawn
/// without coastlines, and stderr says why, once a process.
enum MapCoastlines {
  static let fileName = "coastlines_110m.txt"
  static let credit = "Natural Earth 1:110m"

  /// The bundled outline, read at its first use; nil when it cannot be.
  static let bundled: Coastlines? = {
    let (coastlines, note) = load(bundledFilePath(fileName))
    if let note { printError("bench: warning: \(note)") }
    return coastlines
  }()

  /// The outline in the file at `path`, or nil and why, as a line for stderr
  /// (the reader's error names the file, the line and the point).
  static func load(_ path: String) -> (Coastlines?, note: String?) {
    do {
      return (Coastlines(try CoastlineFile(contentsOf: path), credit: credit), nil)
    } catch {
      return (nil, "\(error); the maps are drawn without coastlines")
    }
  }
}
