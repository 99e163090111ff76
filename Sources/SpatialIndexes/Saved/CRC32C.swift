import _SpatialIndexesShims

/// CRC32C (Castagnoli, polynomial 0x1EDC6F41, reflected 0x82F63B78), the
/// checksum of every section of a saved index: the same as iSCSI's, ext4's
/// and the SSE 4.2 `crc32` instruction's, so other tools can check a file.
///
/// On x86-64 CPUs with SSE 4.2 the instruction does the work (a C function
/// in `_SpatialIndexesShims`, chosen once by `cpuid`); elsewhere a table
/// takes eight bytes a step ("slicing by 8": eight 256-entry tables, one
/// lookup a byte, no dependency between the eight).
///
/// Castagnoli, Bräuer & Herrmann, "Optimization of cyclic redundancy-check
/// codes with 24 and 32 parity bits", IEEE Trans. Comm. 41(6), 1993;
/// Kounavis & Berry, "A systematic approach to building high performance
/// software-based CRC generators", ISCC 2005 (slicing by 8).
package struct CRC32C {
  /// The running value, inverted as the algorithm keeps it.
  private var state: UInt32 = 0xFFFF_FFFF

  /// An empty checksum.
  package init() {}

  /// The checksum of `bytes`, in software or hardware as the CPU allows.
  package static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    var crc = CRC32C()
    crc.update(bytes)
    return crc.value
  }

  /// The checksum of the bytes so far.
  package var value: UInt32 { ~state }

  /// Whether the CPU's instruction computes it.
  package static let usesHardware = _spatialHasHardwareCRC32C() != 0

  /// Adds `bytes` to the checksum.
  package mutating func update(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return }
    if Self.usesHardware {
      state = _spatialCRC32CHardware(state, base, bytes.count)
    } else {
      state = Self.software(state, bytes)
    }
  }

  /// Adds `bytes` with the tables alone (the hardware's result, slower;
  /// tests compare the two).
  package mutating func updateInSoftware(_ bytes: UnsafeRawBufferPointer) {
    state = Self.software(state, bytes)
  }

  /// Slicing by 8 over `bytes` from the running value `crc`.
  static func software(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
    var c = crc
    var i = 0
    let n = bytes.count
    tables.withUnsafeBufferPointer { t in
      while n &- i >= 8 {
        let lo = c ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt32.self).littleEndian
        let hi = bytes.loadUnaligned(fromByteOffset: i &+ 4, as: UInt32.self).littleEndian
        c = t[7 &* 256 &+ Int(lo & 255)] ^ t[6 &* 256 &+ Int((lo >> 8) & 255)]
          ^ t[5 &* 256 &+ Int((lo >> 16) & 255)] ^ t[4 &* 256 &+ Int(lo >> 24)]
          ^ t[3 &* 256 &+ Int(hi & 255)] ^ t[2 &* 256 &+ Int((hi >> 8) & 255)]
          ^ t[1 &* 256 &+ Int((hi >> 16) & 255)] ^ t[Int(hi >> 24)]
        i &+= 8
      }
      while i < n {
        c = t[Int((c ^ UInt32(bytes[i])) & 255)] ^ (c >> 8)
        i &+= 1
      }
    }
    return c
  }

  /// Table `k` (entries `256k ..< 256(k+1)`) advances a byte followed by
  /// `k` zero bytes.
  static let tables: [UInt32] = {
    var t = [UInt32](repeating: 0, count: 8 * 256)
    for b in 0..<256 {
      var c = UInt32(b)
      for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0x82F6_3B78 : c >> 1 }
      t[b] = c
    }
    for k in 1..<8 {
      for b in 0..<256 {
        let prev = t[(k - 1) * 256 + b]
        t[k * 256 + b] = t[Int(prev & 255)] ^ (prev >> 8)
      }
    }
    return t
  }()
}
