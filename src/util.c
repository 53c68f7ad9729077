// SPDX-License-Identifier: MIT
// Owns the small helpers of util.h: FNV-1a, little-endian bytes, number parsing, the clock.
#include "util.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

uint64_t util_fnv1a(const void *p, size_t n, uint64_t h)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * UINT64_C(0x100000001B3);
    return h;
}

bool util_parse_int(const char *text, int64_t lo, int64_t hi, int64_t *out)
{
    if (!text || !*text)
        return false;
    char *end = NULL;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

bool util_parse_seconds(const char *text, double min_s, double max_s, int64_t *ms)
{
    if (!text || !*text)
        return false;
    char *end = NULL;
    double v = strtod(text, &end);
    if (*end || !isfinite(v) || v < min_s || v > max_s)
        return false;
    *ms = (int64_t)llround(v * 1000.0);
    return true;
}

int64_t util_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

double util_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void util_standard_args(int argc, char **argv, const char *name, const char *version,
                        void (*usage)(FILE *out))
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0 ||
            strcmp(argv[i], "-help") == 0) {
            usage(stdout);
            exit(0);
        }
        if (strcmp(argv[i], "--version") == 0) {
            printf("%s %s\n", name, version);
            exit(0);
        }
    }
}

bool util_write_file(const char *path, const void *buf, size_t n, char *err, size_t errlen)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(buf, 1, n, f) == n;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return ok;
}

uint8_t *util_read_file(const char *path, size_t max, size_t *n, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    uint8_t *buf = malloc(max + 1);
    *n = buf ? fread(buf, 1, max + 1, f) : 0;
    fclose(f);
    if (!buf)
        snprintf(err, errlen, "%s: out of memory", path);
    return buf;
}
