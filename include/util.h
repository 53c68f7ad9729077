// SPDX-License-Identifier: MIT
// Small helpers every layer uses, written once: hashing, little-endian byte order, bounded
// number parsing and the monotonic clock.
#ifndef UTIL_H_INCLUDED
#define UTIL_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

// FNV-1a's 64-bit offset basis: the hash of no bytes, and the start of a running hash.
#define UTIL_FNV_BASIS UINT64_C(0xCBF29CE484222325)

// The 64-bit FNV-1a hash of n bytes at p, continuing from h (UTIL_FNV_BASIS to start).
uint64_t util_fnv1a(const void *p, size_t n, uint64_t h);

// Writes the low `bytes` bytes of v at p, least significant first (bytes 1..8).
static inline void util_put_le(uint8_t *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

// Reads `bytes` bytes at p, least significant first (bytes 1..8).
static inline uint64_t util_get_le(const uint8_t *p, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

// The next value of a xorshift64 generator (state: any value but 0); fast, reproducible.
static inline uint64_t util_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

// Writes the n bytes of buf to path. False with "cannot write PATH: reason" in err.
bool util_write_file(const char *path, const void *buf, size_t n, char *err, size_t errlen);

// The first bytes of path, at most max of them (read max + 1 to see that a file is too long):
// a buffer to free, its length in *n; NULL with "cannot open PATH: reason" (or out of memory)
// in err.
uint8_t *util_read_file(const char *path, size_t max, size_t *n, char *err, size_t errlen);

// Parses a whole decimal number in lo..hi (the whole text, no spaces). False, *out unchanged,
// when the text is empty, not a number, out of range or followed by anything.
bool util_parse_int(const char *text, int64_t lo, int64_t hi, int64_t *out);

// Parses seconds (a real number, in min_s..max_s) into whole milliseconds, rounded. False,
// *ms unchanged, when the text is not such a number.
bool util_parse_seconds(const char *text, double min_s, double max_s, int64_t *ms);

// The arguments every program of Damka answers alike: with --help (or -h) it calls
// usage(stdout) and exits 0; with --version it prints "<name> <version>" and exits 0; else it
// returns. Programs call it first, and usage(stderr) for a bad command line.
void util_standard_args(int argc, char **argv, const char *name, const char *version,
                        void (*usage)(FILE *out));

// Milliseconds and seconds on a monotonic clock (for durations, not dates).
int64_t util_now_ms(void);
double util_now_s(void);

#endif
