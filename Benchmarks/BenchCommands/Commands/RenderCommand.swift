import BenchHarness
import Foundation

/// `bench render --center LAT,LON --zoom Z [options]`: an SVG of what the
/// cluster workload computes for one viewport, or for two side by side with
/// `--pan DX,DY`. Writes the file atomically and prints its path: --out
/// (replaced if there), else a default name that never replaces a file.
func renderCommand(_ arguments: [String]) throws -> Int32 {
  let command = RenderOptions.command
  let options = try RenderOptions.parse(arguments)
  // A bad path fails before the dataset is loaded.
  let inputs = options.runOptions.inputs
  try OutputCheck.check(options.out.map { [OutputTarget("--out", $0)] } ?? [], inputs: inputs)
  let datasets = try loadDatasets(options.runOptions, command: command)
  let dataset = datasets[0]
  let picture = try RenderScene.picture(options, dataset: dataset)

  let path: String
  if let out = options.out {
    path = out
  } else {
    let name = MapPicture.defaultFileName(
      dataset: dataset.name, zoom: options.zoom, panned: options.pan != nil)
    // a default name never replaces a picture (results/render holds tracked ones)
    if isAtPackageRoot() {
      try makeFolder("results/render")
      path = freeName("results/render/" + name)
    } else {
      path = freeName(name)
    }
    try OutputCheck.check([OutputTarget("--out", path)], inputs: inputs)
  }
  try AtomicFile.write(Array(picture.render().utf8), to: path, existing: options.out == nil ? .keep : .replace)
  output("wrote \(path)")
  return 0
}
