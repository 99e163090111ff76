// What Swift cannot say: a cache prefetch hint for the k-d tree's queries.
// Header-only (static inline), so an @inlinable Swift query that calls it
// compiles to the single instruction in the client, as swift-numerics'
// _NumericsShims does for its C math.
#ifndef SPATIALINDEXES_SHIMS_H
#define SPATIALINDEXES_SHIMS_H

/// Starts loading the cache line holding `p` for reading, into every cache
/// level, and returns at once: no result, no fault even for a bad address.
static inline __attribute__((always_inline)) void _spatialPrefetch(const void *_Nonnull p) {
  __builtin_prefetch(p, 0, 3);
}

#endif
