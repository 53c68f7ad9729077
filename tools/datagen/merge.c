// SPDX-License-Identifier: MIT
// damka-datagen --merge: record files (chunks of one or several runs, ranks of a cluster) into
// one file without repeated positions: the records in the order of the files given and, in
// each, of the file; of a position met again (the same pieces, kings and side to move) only its
// first record is kept, as one run on one file keeps it. The set of positions seen holds the
// records themselves, so no two positions are ever taken for one.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"
#include "record.h"
#include "util.h"

enum { POSITION_BYTES = 13 }; // pieces, kings and side: what makes two records one position

typedef struct Seen {
    uint8_t *slots; // POSITION_BYTES each; all 0xFF is a free slot (no position has all bits)
    size_t mask;
} Seen;

static const uint8_t FREE[POSITION_BYTES] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                             0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};

// True when the position of record r was not in the set (it is now).
static bool insert(Seen *s, const uint8_t *r)
{
    size_t i = (size_t)util_fnv1a(r, POSITION_BYTES, UTIL_FNV_BASIS) & s->mask;
    for (;; i = (i + 1) & s->mask) {
        uint8_t *slot = s->slots + i * POSITION_BYTES;
        if (memcmp(slot, FREE, POSITION_BYTES) == 0) {
            memcpy(slot, r, POSITION_BYTES);
            return true;
        }
        if (memcmp(slot, r, POSITION_BYTES) == 0)
            return false;
    }
}

// The number of records of path (its size over RECORD_BYTES); -1 after an error line.
static long long records_of(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0) {
        fprintf(stderr, "damka-datagen: cannot read %s: %s\n", path, strerror(errno));
        if (f)
            fclose(f);
        return -1;
    }
    long size = ftell(f);
    fclose(f);
    if (size < 0 || size % RECORD_BYTES != 0) {
        fprintf(stderr, "damka-datagen: %s is not a record file (%ld bytes, not whole records)\n",
                path, size);
        return -1;
    }
    return size / RECORD_BYTES;
}

int datagen_merge(const char *out, const char *const *in, int n)
{
    long long total = 0;
    for (int k = 0; k < n; k++) {
        long long r = records_of(in[k]);
        if (r < 0)
            return 1;
        total += r;
    }
    size_t slots = 1024;
    while (slots < (size_t)total * 2)
        slots *= 2;
    Seen seen = {malloc(slots * POSITION_BYTES), slots - 1};
    FILE *o = seen.slots ? fopen(out, "wb") : NULL;
    if (!seen.slots || !o) {
        fprintf(stderr, "damka-datagen: %s\n",
                seen.slots ? strerror(errno) : "out of memory for the set of positions");
        free(seen.slots);
        return 1;
    }
    memset(seen.slots, 0xFF, slots * POSITION_BYTES);
    long long kept = 0, repeated = 0;
    bool ok = true;
    for (int k = 0; k < n && ok; k++) {
        FILE *f = fopen(in[k], "rb");
        uint8_t rec[RECORD_BYTES];
        long long at = 0;
        while (ok && f && fread(rec, 1, RECORD_BYTES, f) == RECORD_BYTES) {
            Board b;
            int result, score;
            if (!record_decode(rec, &b, &result, &score)) {
                fprintf(stderr, "damka-datagen: %s: record %lld is not a position\n", in[k], at);
                ok = false;
            } else if (insert(&seen, rec)) {
                ok = fwrite(rec, 1, RECORD_BYTES, o) == RECORD_BYTES;
                kept++;
            } else {
                repeated++;
            }
            at++;
        }
        if (!f) {
            fprintf(stderr, "damka-datagen: cannot read %s: %s\n", in[k], strerror(errno));
            ok = false;
        } else {
            fclose(f);
        }
    }
    if (fclose(o) != 0)
        ok = false;
    free(seen.slots);
    if (!ok) {
        fprintf(stderr, "damka-datagen: the merge into %s failed; the file is incomplete\n", out);
        return 1;
    }
    printf("damka-datagen: merged %d files into %s: %lld positions, %lld repeated left out\n", n,
           out, kept, repeated);
    return 0;
}
