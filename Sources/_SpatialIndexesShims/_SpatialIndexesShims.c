// The prefetch hint is all in the header. The CRC32C instruction lives here,
// compiled for SSE 4.2 on its own (the function attribute), so the rest of
// the package keeps the baseline x86-64 target and the instruction runs only
// after `cpuid` says the CPU has it. Swift has no intrinsic for it.
#include "_SpatialIndexesShims.h"
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>

int _spatialHasHardwareCRC32C(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
  return (c & bit_SSE4_2) != 0;
}

__attribute__((target("sse4.2")))
uint32_t _spatialCRC32CHardware(uint32_t crc, const void *bytes, size_t count) {
  const unsigned char *p = bytes;
  uint64_t c = crc;
  // Three independent streams would hide the instruction's 3-cycle latency,
  // but joining them needs a carry-less multiply; one stream already runs
  // at several GB/s, far above the disk.
  while (count >= 8) {
    uint64_t word;
    memcpy(&word, p, 8);
    c = __builtin_ia32_crc32di(c, word);
    p += 8;
    count -= 8;
  }
  uint32_t c32 = (uint32_t)c;
  while (count > 0) {
    c32 = __builtin_ia32_crc32qi(c32, *p);
    p += 1;
    count -= 1;
  }
  return c32;
}
#else
int _spatialHasHardwareCRC32C(void) { return 0; }

uint32_t _spatialCRC32CHardware(uint32_t crc, const void *bytes, size_t count) {
  (void)bytes;
  (void)count;
  return crc;
}
#endif
