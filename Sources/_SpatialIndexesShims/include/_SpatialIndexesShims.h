// What Swift cannot say: a cache prefetch hint for the k-d tree's queries.
// Header-only (static inline), so an @inlinable Swift query that calls it
// compiles to the single instruction in the client, as swift-numerics'
// _NumericsShims does for its C math.
#ifndef SPATIALINDEXES_SHIMS_H
#define SPATIALINDEXES_SHIMS_H

#include <stddef.h>
#include <stdint.h>

/// Starts loading the cache line holding `p` for reading, into every cache
/// level, and returns at once: no result, no fault even for a bad address.
static inline __attribute__((always_inline)) void _spatialPrefetch(const void *_Nonnull p) {
  __builtin_prefetch(p, 0, 3);
}

/// Whether this CPU has the CRC32C instruction (SSE 4.2 on x86-64): then
/// `_spatialCRC32CHardware` may be called. False on other CPUs.
int _spatialHasHardwareCRC32C(void);

/// Continues the CRC32C (Castagnoli) of a byte stream over `count` bytes at
/// `bytes`, from the running value `crc` (pre- and post-inverted by the
/// caller), with the CPU's instruction. Call only when
/// `_spatialHasHardwareCRC32C()` is true.
uint32_t _spatialCRC32CHardware(uint32_t crc, const void *_Nonnull bytes, size_t count);

#endif
