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

// The product of two 32-bit polynomials modulo the CRC32C polynomial, in
// the CRC's reflected order (bit 31 is x^0): the shift that moves a running
// value past `n` zero bytes is a product by x^(8n).
static uint32_t crc32cMultiply(uint32_t a, uint32_t b) {
  uint32_t product = 0;
  for (int i = 0; i < 32; i++) {
    if (a & 0x80000000u) product ^= b;
    a <<= 1;
    b = (b & 1) ? (b >> 1) ^ 0x82F63B78u : b >> 1;
  }
  return product;
}

// x^(8n) modulo the polynomial, by squaring.
static uint32_t crc32cShift(size_t n) {
  uint32_t result = 0x80000000u, power = 0x00800000u;  // x^0, x^8
  while (n > 0) {
    if (n & 1) result = crc32cMultiply(result, power);
    power = crc32cMultiply(power, power);
    n >>= 1;
  }
  return result;
}

__attribute__((target("sse4.2")))
static uint64_t crc32cWords(uint64_t c, const unsigned char *p, size_t words) {
  for (size_t k = 0; k < words; k++) {
    uint64_t word;
    memcpy(&word, p + 8 * k, 8);
    c = __builtin_ia32_crc32di(c, word);
  }
  return c;
}

__attribute__((target("sse4.2")))
uint32_t _spatialCRC32CHardware(uint32_t crc, const void *bytes, size_t count) {
  const unsigned char *p = bytes;
  uint64_t c = crc;
  // The instruction takes 3 cycles and can start one a cycle: three
  // streams over the three thirds of a long input run side by side, then
  // the first two values are moved past the bytes after them (a product by
  // x^(8n), the same for both) and added, as the CRC is linear.
  if (count >= 3 * 4096) {
    size_t words = count / 24, third = 8 * words;
    uint64_t c1 = c, c2 = 0, c3 = 0;
    const unsigned char *p2 = p + third, *p3 = p + 2 * third;
    for (size_t k = 0; k < third; k += 8) {
      uint64_t w1, w2, w3;
      memcpy(&w1, p + k, 8);
      memcpy(&w2, p2 + k, 8);
      memcpy(&w3, p3 + k, 8);
      c1 = __builtin_ia32_crc32di(c1, w1);
      c2 = __builtin_ia32_crc32di(c2, w2);
      c3 = __builtin_ia32_crc32di(c3, w3);
    }
    uint32_t shift = crc32cShift(third);
    c = crc32cMultiply(crc32cMultiply((uint32_t)c1, shift) ^ (uint32_t)c2, shift) ^ (uint32_t)c3;
    p += 3 * third;
    count -= 3 * third;
  }
  c = crc32cWords(c, p, count / 8);
  p += count & ~(size_t)7;
  count &= 7;
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
