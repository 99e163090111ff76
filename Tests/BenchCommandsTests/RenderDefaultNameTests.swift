import Testing

/// `bench render` without --out wrote over the picture of the same view
/// (the README's example replaced the tracked results/render/*.svg). A
/// default name that is taken now gives way to the next free one; --out
/// still names the file to write.
@Suite struct RenderDefaultNameTests {
  static let view = ["render", "--dataset", "uniform", "--n", "300", "--center", "10,20", "--zoom", "3"]

  @Test func theDefaultNameNeverReplacesAPicture() throws {
    try withTemporaryFolder { folder in
      try folder.write("render-uniform-z3.svg", "a picture kept in git\n")
      let first = try runBench(Self.view, in: folder.path)
      #expect(first.code == 0 && first.stdout == "wrote render-uniform-z3-2.svg\n", "\(first.stdout) \(first.stderr)")
      let second = try runBench(Self.view, in: folder.path)
      #expect(second.code == 0 && second.stdout == "wrote render-uniform-z3-3.svg\n")
      #expect(text(folder.file("render-uniform-z3.svg")) == "a picture kept in git\n")
      let chosen = try runBench(Self.view + ["--out", "render-uniform-z3.svg"], in: folder.path)
      #expect(chosen.code == 0 && text(folder.file("render-uniform-z3.svg"))?.contains("<svg") == true)
    }
  }
}
