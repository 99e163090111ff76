import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The PostgreSQL bench talks to, always through `psql`: a server of its
/// own in a temporary folder (the default), or one the user names with a
/// connection string.
///
/// A server of its own is made with `initdb`, started with `pg_ctl` on a
/// Unix socket in its folder (no TCP port), and stopped and removed by
/// ``stop()``. Should bench die first (Ctrl-C, `kill`, a crash), a small
/// shell started beside it with `setsid` (so the signal that stopped bench
/// does not reach it) waits for bench's process to end, then stops that
/// server and removes the folder.
public final class PostgresServer {
  /// How `psql` reaches the server: after `psql`'s own options.
  let connection: [String]
  /// The folder for scripts and data files (and the server's own, when it is ours).
  let workFolder: String
  /// The `pg_ctl` command and the data folder, when the server is ours.
  private let owned: (tools: PostgresTools, data: String)?
  public let tools: PostgresTools
  /// For messages: `its own PostgreSQL 15 in /tmp/...`, or `--connection`.
  public let description: String
  private var stopped = false

  /// Whether bench made the server (and may create the extension in it).
  public var isOwn: Bool { owned != nil }

  /// Starts a server of its own.
  ///
  /// - Throws: ``PeerError`` `.unavailable`: no PostgreSQL, no user to run
  ///   it as under root, or a server that would not start (its log's last line).
  public static func start() throws(PeerError) -> PostgresServer {
    let tools = try PostgresTools.find(needsServer: true)
    guard tools.hasPostGIS() else {
      throw PeerError(
        .unavailable,
        "PostGIS is not installed for \(tools.version) in \(tools.bin) (Debian: apt-get install postgresql-15-postgis-3)")
    }
    let work = try makeGuardedWorkFolder()
    let data = work + dataFolderName
    do throws(PeerError) {
      try prepareDataFolder(data, tools)
      let socket = data
      guard (socket + "/.s.PGSQL.5432").utf8.count < 104 else {
        throw PeerError(.unavailable, "the temporary folder \(work) is too deep for the server's Unix socket (set TMPDIR shorter)")
      }
      let settings = [
        "listen_addresses=''", "unix_socket_directories='\(socket)'", "fsync=off",
        "synchronous_commit=off", "full_page_writes=off", "jit=off",
        "shared_buffers=\(sharedBuffersMegabytes())MB",
      ].map { "-c \($0)" }.joined(separator: " ")
      let start = try tools.runAsServerUser(
        "pg_ctl", ["-D", data, "-w", "-t", "60", "-l", data + "/server.log", "-o", settings, "start"],
        errorFile: work + "/pg_ctl.err")
      guard start.succeeded else {
        let log = (try? String(contentsOfFile: data + "/server.log", encoding: .utf8)) ?? start.errorText
        let last = log.split(separator: "\n").last.map(String.init) ?? "no log"
        throw PeerError(.unavailable, "PostgreSQL would not start in \(data): \(last)")
      }
      return PostgresServer(
        connection: ["-h", socket, "-U", "bench", "-d", "postgres"], workFolder: work,
        owned: (tools, data), tools: tools,
        description: "its own PostgreSQL (\(tools.version)) in \(work)")
    } catch {
      try? FileManager.default.removeItem(atPath: work)
      throw error
    }
  }

  /// A server named by a `psql` connection string (`host=… dbname=…` or
  /// `postgresql://…`); bench creates only a schema of its own in it.
  public static func connect(_ connectionString: String) throws(PeerError) -> PostgresServer {
    let tools = try PostgresTools.find(needsServer: false)
    let server = PostgresServer(
      connection: ["-d", connectionString], workFolder: try makeGuardedWorkFolder(), owned: nil, tools: tools,
      description: "the server of --connection")
    _ = try server.psql("SELECT 1;\n", name: "connect")  // a refused connection says so now (deinit removes the folder)
    return server
  }

  private init(
    connection: [String], workFolder: String, owned: (tools: PostgresTools, data: String)?,
    tools: PostgresTools, description: String
  ) {
    self.connection = connection
    self.workFolder = workFolder
    self.owned = owned
    self.tools = tools
    self.description = description
  }

  deinit { stop() }

  /// Stops a server of its own and removes the work folder; idempotent.
  public func stop() {
    guard !stopped else { return }
    stopped = true
    if let owned {
      _ = try? owned.tools.runAsServerUser(
        "pg_ctl", ["-D", owned.data, "-m", "fast", "-w", "-t", "30", "stop"], errorFile: workFolder + "/stop.err")
    }
    try? FileManager.default.removeItem(atPath: workFolder)
  }

  // MARK: - Setting up

  /// The data folder inside the work folder: short, as a Unix socket's path
  /// holds at most 103 bytes.
  private static let dataFolderName = "/d"

  /// A new temporary folder with its watcher already started (a Ctrl-C
  /// during initdb, or during a run on `--connection`, leaves nothing
  /// either). The stop signals wait while the two are made, so none lands
  /// between them: one that came meanwhile ends bench once they are. (The
  /// mask is this thread's: the commands start the server before any
  /// worker thread exists, so no other thread can take the signal.)
  private static func makeGuardedWorkFolder() throws(PeerError) -> String {
    var stops = sigset_t(), before = sigset_t()
    sigemptyset(&stops)
    for s in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&stops, s) }
    pthread_sigmask(SIG_BLOCK, &stops, &before)
    defer { pthread_sigmask(SIG_SETMASK, &before, nil) }
    let work = try makeWorkFolder()
    do throws(PeerError) {
      try guardFolder(work, data: work + dataFolderName)
    } catch {
      rmdir(work)
      throw error
    }
    return work
  }

  private static func makeWorkFolder() throws(PeerError) -> String {
    let base = NSTemporaryDirectory().hasSuffix("/") ? NSTemporaryDirectory() : NSTemporaryDirectory() + "/"
    var template = Array((base + "spatialbench-pg-XXXXXX").utf8CString)
    guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
      throw PeerError(.failed, "cannot create a temporary folder in \(base): \(String(cString: strerror(errno)))")
    }
    let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    // the server's user must reach its data folder inside
    chmod(path, 0o711)
    return path
  }

  private static func prepareDataFolder(_ data: String, _ tools: PostgresTools) throws(PeerError) {
    guard mkdir(data, 0o700) == 0 else {
      throw PeerError(.failed, "cannot create \(data): \(String(cString: strerror(errno)))")
    }
    if let user = tools.serverUser { chown(data, user.uid, user.gid) }
    let initdb = try tools.runAsServerUser(
      "initdb", ["-D", data, "-A", "trust", "-U", "bench", "--no-sync", "-E", "UTF8", "--locale=C"],
      errorFile: data + "/../initdb.err")
    guard initdb.succeeded else {
      let last = initdb.errorText.split(separator: "\n").last.map(String.init) ?? "exit \(initdb.status)"
      throw PeerError(.unavailable, "initdb failed in \(data): \(last)")
    }
  }

  /// Starts the watcher that stops the server and removes `work` once
  /// this process is gone, however it ended.
  private static func guardFolder(_ work: String, data: String) throws(PeerError) {
    let script = """
      while kill -0 "$1" 2>/dev/null; do sleep 0.2; done
      if [ -f "$2/postmaster.pid" ]; then kill -INT "$(head -1 "$2/postmaster.pid")" 2>/dev/null; fi
      i=0; while [ -f "$2/postmaster.pid" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
      # an initdb that outlived bench may still write: remove until it is gone
      rm -rf "$3"; sleep 1; rm -rf "$3"
      """
    try Subprocess.detach("/bin/sh", ["-c", script, "sh", String(getpid()), data, work])
  }

  /// A quarter of the machine's memory, at most 8 GiB: room for the table
  /// and its indexes at 10M points, as a tuned server would give them.
  private static func sharedBuffersMegabytes() -> Int {
    let total = Int(ProcessInfo.processInfo.physicalMemory >> 20)
    return max(128, min(8192, total / 4))
  }
}

/// Where the PostgreSQL programs are, and who runs the server.
public struct PostgresTools: Sendable {
  /// The folder holding `psql` (and `initdb`, `pg_ctl` for a server of its own).
  public let bin: String
  /// `PostgreSQL 15`, from the folder name or `psql --version`.
  public let version: String
  /// Under root the server runs as `postgres` (PostgreSQL refuses root).
  let serverUser: (uid: uid_t, gid: gid_t)?

  /// The folder the environment's `SPATIALBENCH_PG_BIN` names (that one
  /// only), else the newest `/usr/lib/postgresql/*/bin` (Debian), else the
  /// first on `PATH` that has them all.
  public static func find(needsServer: Bool) throws(PeerError) -> PostgresTools {
    let fm = FileManager.default
    let wanted = needsServer ? ["psql", "initdb", "pg_ctl"] : ["psql"]
    func complete(_ folder: String) -> Bool { wanted.allSatisfy { fm.isExecutableFile(atPath: folder + "/" + $0) } }
    var candidates: [String] = []
    if let named = ProcessInfo.processInfo.environment["SPATIALBENCH_PG_BIN"] {
      candidates.append(named)  // that one only: the user chose
    } else {
      let debian = (try? fm.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
      candidates += debian.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "/usr/lib/postgresql/\($0)/bin" }
      candidates += (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
    }
    guard let bin = candidates.first(where: complete) else {
      throw PeerError(
        .unavailable,
        "PostgreSQL is not installed: no \(wanted.joined(separator: ", ")) in SPATIALBENCH_PG_BIN, "
          + "/usr/lib/postgresql/*/bin or PATH (Debian: apt-get install postgresql postgresql-15-postgis-3)")
    }
    let folder = URL(fileURLWithPath: bin).deletingLastPathComponent().lastPathComponent
    let version = Int(folder) != nil ? "PostgreSQL \(folder)" : "PostgreSQL"
    var user: (uid_t, gid_t)? = nil
    if needsServer && getuid() == 0 {
      guard let pw = getpwnam("postgres") else {
        throw PeerError(
          .unavailable, "running as root, and PostgreSQL will not run as root: there is no user postgres to run it as")
      }
      user = (pw.pointee.pw_uid, pw.pointee.pw_gid)
    }
    return PostgresTools(bin: bin, version: version, serverUser: user)
  }

  /// Whether the PostGIS extension is installed beside these programs
  /// (`pg_config --sharedir`/extension/postgis.control); true when there
  /// is no `pg_config` to ask (`CREATE EXTENSION` then says).
  public func hasPostGIS() -> Bool {
    let config = bin + "/pg_config", scratch = Self.scratchFile
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    guard FileManager.default.isExecutableFile(atPath: config),
          let result = try? Subprocess.run(config, ["--sharedir"], errorFile: scratch),
          result.succeeded
    else { return true }
    let share = String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    return FileManager.default.fileExists(atPath: share + "/extension/postgis.control")
  }

  private static var scratchFile: String {
    NSTemporaryDirectory() + "/spatialbench-pg_config-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).err"
  }

  /// Runs a server program (`initdb`, `pg_ctl`) as the server's user.
  func runAsServerUser(_ program: String, _ arguments: [String], errorFile: String) throws(PeerError) -> Subprocess.Result {
    let path = bin + "/" + program
    if serverUser != nil {
      return try Subprocess.run(
        "/usr/sbin/runuser", ["-u", "postgres", "--", path] + arguments, errorFile: errorFile, captureOutput: false)
    }
    return try Subprocess.run(path, arguments, errorFile: errorFile, captureOutput: false)
  }
}
