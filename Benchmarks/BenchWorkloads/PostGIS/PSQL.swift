import Foundation

extension PostgresServer {
  /// Runs `script` through `psql` (from a file in the work folder named
  /// `name`.sql) and returns its output lines: result rows as CSV without
  /// headers, and with `\timing on` psql's `Time: … ms` lines.
  ///
  /// `psql` runs with `-X` (no `.psqlrc`), quietly, stopping at the first
  /// error.
  ///
  /// - Throws: ``PeerError`` `.unavailable` for a connection psql could not
  ///   make, `.failed` for a statement the server refused (its first error line).
  func psql(_ script: String, name: String) throws(PeerError) -> [Substring] {
    let file = workFolder + "/" + name + ".sql"
    do {
      try script.write(toFile: file, atomically: false, encoding: .utf8)
    } catch {
      throw PeerError(.failed, "cannot write \(file): \(error.localizedDescription)")
    }
    let result = try Subprocess.run(
      tools.bin + "/psql",
      ["-X", "-q", "-t", "--csv", "-v", "ON_ERROR_STOP=1", "-f", file] + connection,
      errorFile: workFolder + "/" + name + ".err")
    guard result.succeeded else {
      let lines = result.errorText.split(separator: "\n")
      let first = lines.first { $0.contains("ERROR") || $0.contains("FATAL") || $0.contains("error") }
        ?? lines.first ?? "psql exited with \(result.status)"
      // psql: 2 when it could not connect, 3 for a script error
      if result.status == 2 || first.contains("connection to server") {
        throw PeerError(.unavailable, "cannot connect to \(description): \(first)")
      }
      throw PeerError(.failed, "PostgreSQL refused \(name).sql: \(first)")
    }
    return String(decoding: result.output, as: UTF8.self).split(separator: "\n")
  }
}
