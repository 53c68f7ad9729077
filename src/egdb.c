// SPDX-License-Identifier: MIT
// Owns the endgame databases' index, file format and probing.
//
// Index of a balance (wm, wk, bm, bk), both sides to move:
//   idx = (((stm * C(28, wm) + W) * C(28, bm) + B) * C(f, wk) + K) * C(f - wk, bk) + L
// W and B rank the white and black men among the 28 squares a man of that colour may stand on
// (not its promotion rank), as combinations (colex order); f = 32 - wm - bm squares are left
// for kings, and K, L rank the white then the black kings among the squares still free. Men
// of both colours on one square make a hole.
//
// File (little-endian): a 64-byte header ("DAMKAEGB", or "DAMKAEGL" for the loose model;
// version, the balance, the number of positions, positions per block, blocks, a 64-bit FNV-1a
// checksum of every value, the size of the data, a checksum of the header and block index),
// then one 64-bit offset per block and one at the end, then the blocks. A block is a 32-bit
// check of its bytes (FNV-1a folded, so that a probe checks the one block it reads), then
// run-length coded values: a value byte and its run length - 1 as a base-128 varint, until the
// block's positions are all given. Opening a file reads its header and index only; blocks are
// read when probed.
#include "egdb.h"

#include <assert.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "bitboard.h"
#include "movegen.h"
#include "platform.h"
#include "rules.h"
#include "tables.h"
#include "util.h"

enum {
    MAN_SQUARES = 28,
    HEADER_BYTES = 64,
    BLOCK_CHECK_BYTES = 4,                                     // a block's own checksum
    BLOCK_BYTES_MAX = BLOCK_CHECK_BYTES + 3 * EGDB_BLOCK + 16, // its check and its runs
    SLOTS = EGDB_PIECES_MAX + 1,                               // per count of a kind of piece
};

static uint64_t g_binom[SQUARE_COUNT + 1][EGDB_PIECES_MAX + 1];

static void init_binom(void)
{
    if (g_binom[0][0])
        return;
    for (int n = 0; n <= SQUARE_COUNT; n++)
        for (int k = 0; k <= EGDB_PIECES_MAX; k++)
            g_binom[n][k] = k == 0 ? 1 : n == 0 ? 0 : g_binom[n - 1][k - 1] + g_binom[n - 1][k];
}

static uint64_t binom(int n, int k) { return n < 0 || k < 0 || k > n ? 0 : g_binom[n][k]; }

EgdbMaterial egdb_material_of(const Board *b)
{
    Bitboard w = b->pieces[SIDE_WHITE], bl = b->pieces[SIDE_BLACK];
    return (EgdbMaterial){(uint8_t)__builtin_popcountll(w & ~b->kings),
                          (uint8_t)__builtin_popcountll(w & b->kings),
                          (uint8_t)__builtin_popcountll(bl & ~b->kings),
                          (uint8_t)__builtin_popcountll(bl & b->kings)};
}

uint64_t egdb_slice_size(EgdbMaterial m)
{
    init_binom();
    int f = SQUARE_COUNT - m.wm - m.bm;
    return 2 * binom(MAN_SQUARES, m.wm) * binom(MAN_SQUARES, m.bm) * binom(f, m.wk) *
           binom(f - m.wk, m.bk);
}

uint64_t egdb_placements(EgdbMaterial m)
{
    init_binom();
    return binom(MAN_SQUARES, m.wm) * binom(MAN_SQUARES, m.bm);
}

// Colex rank of the k sorted positions pos[0] < ... < pos[k-1].
static uint64_t rank_of(const int *pos, int k)
{
    uint64_t r = 0;
    for (int i = 0; i < k; i++)
        r += binom(pos[i], i + 1);
    return r;
}

// The k sorted positions of colex rank r among n.
static void unrank(uint64_t r, int n, int k, int *pos)
{
    for (int i = k; i >= 1; i--) {
        // The largest p < n with C(p, i) <= r, by bisection.
        int lo = i - 1, hi = n - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) / 2;
            if (binom(mid, i) <= r)
                lo = mid;
            else
                hi = mid - 1;
        }
        pos[i - 1] = lo;
        r -= binom(lo, i);
    }
}

// A set of pieces as a 32-bit mask in square order (bit s = square s).
static uint32_t square_mask(Bitboard bb)
{
    uint32_t m = 0;
    for (; bb; bb &= bb - 1)
        m |= 1u << g_bit_square[__builtin_ctzll(bb)];
    return m;
}

// The squares of a square-order mask, ascending, minus `base`; returns the count.
static int positions_of(uint32_t m, int base, int *pos)
{
    int n = 0;
    for (; m; m &= m - 1)
        pos[n++] = __builtin_ctz(m) - base;
    return n;
}

// The squares of m as positions among the squares not in `taken`, ascending.
static int positions_among(uint32_t m, uint32_t taken, int *pos)
{
    int n = 0;
    for (; m; m &= m - 1) {
        int s = __builtin_ctz(m);
        pos[n++] = s - __builtin_popcount(taken & ((1u << s) - 1));
    }
    return n;
}

// Squares 1-4 (rank 8) and 29-32 (rank 1) in square order.
static const uint32_t RANK8 = 0xFu, RANK1 = 0xF0000000u;

bool egdb_index(const Board *b, uint64_t *idx)
{
    init_binom();
    uint32_t wm = square_mask(b->pieces[SIDE_WHITE] & ~b->kings);
    uint32_t bm = square_mask(b->pieces[SIDE_BLACK] & ~b->kings);
    uint32_t wk = square_mask(b->pieces[SIDE_WHITE] & b->kings);
    uint32_t bk = square_mask(b->pieces[SIDE_BLACK] & b->kings);
    if ((wm & RANK8) || (bm & RANK1))
        return false; // a man on its promotion rank
    int pos[SQUARE_COUNT];
    int nwm = positions_of(wm, 4, pos);
    uint64_t w = rank_of(pos, nwm);
    int nbm = positions_of(bm, 0, pos);
    uint64_t bmi = rank_of(pos, nbm);
    int nwk = positions_among(wk, wm | bm, pos);
    uint64_t wki = rank_of(pos, nwk);
    int nbk = positions_among(bk, wm | bm | wk, pos);
    uint64_t bki = rank_of(pos, nbk);
    int f = SQUARE_COUNT - nwm - nbm;
    uint64_t i = (uint64_t)b->side;
    i = i * binom(MAN_SQUARES, nwm) + w;
    i = i * binom(MAN_SQUARES, nbm) + bmi;
    i = i * binom(f, nwk) + wki;
    i = i * binom(f - nwk, nbk) + bki;
    assert(i < egdb_slice_size(egdb_material_of(b)));
    *idx = i;
    return true;
}

// The k-th (0-based) square not in `taken`.
static int nth_free(uint32_t taken, int k)
{
    uint32_t free = ~taken;
    for (int i = 0; i < k; i++)
        free &= free - 1;
    return __builtin_ctz(free);
}

bool egdb_unindex(EgdbMaterial m, uint64_t idx, Board *b)
{
    init_binom();
    int f = SQUARE_COUNT - m.wm - m.bm;
    uint64_t nbk = binom(f - m.wk, m.bk), nwk = binom(f, m.wk), nbm = binom(MAN_SQUARES, m.bm),
             nwm = binom(MAN_SQUARES, m.wm);
    uint64_t bki = idx % nbk, wki = (idx /= nbk) % nwk, bmi = (idx /= nwk) % nbm;
    uint64_t wmi = (idx /= nbm) % nwm, stm = idx / nwm;
    int pos[SQUARE_COUNT];
    uint32_t wm = 0, bm = 0, wk = 0, bk = 0;
    unrank(wmi, MAN_SQUARES, m.wm, pos);
    for (int i = 0; i < m.wm; i++)
        wm |= 1u << (pos[i] + 4);
    unrank(bmi, MAN_SQUARES, m.bm, pos);
    for (int i = 0; i < m.bm; i++)
        bm |= 1u << pos[i];
    if (wm & bm)
        return false;
    unrank(wki, f, m.wk, pos);
    for (int i = m.wk - 1; i >= 0; i--) // positions among the free squares, highest first
        wk |= 1u << nth_free(wm | bm, pos[i]);
    unrank(bki, f - m.wk, m.bk, pos);
    for (int i = m.bk - 1; i >= 0; i--)
        bk |= 1u << nth_free(wm | bm | wk, pos[i]);
    Bitboard bw = 0, bb = 0, kings = 0;
    for (uint32_t x = wm | wk; x; x &= x - 1)
        bw |= g_square_bb[__builtin_ctz(x)];
    for (uint32_t x = bm | bk; x; x &= x - 1)
        bb |= g_square_bb[__builtin_ctz(x)];
    for (uint32_t x = wk | bk; x; x &= x - 1)
        kings |= g_square_bb[__builtin_ctz(x)];
    b->pieces[SIDE_WHITE] = bw;
    b->pieces[SIDE_BLACK] = bb;
    b->kings = kings;
    b->side = stm ? SIDE_BLACK : SIDE_WHITE;
    b->key = board_compute_key(b);
    return true;
}

void egdb_file_name(EgdbMaterial m, EgdbKind kind, char *buf, size_t len)
{
    snprintf(buf, len, "%dm%dk-%dm%dk.%s", m.wm, m.wk, m.bm, m.bk,
             kind == EGDB_LOOSE ? "dkl" : "dkb");
}

// The first 8 bytes of a file of each kind.
static const char *magic(EgdbKind kind) { return kind == EGDB_LOOSE ? "DAMKAEGL" : "DAMKAEGB"; }

int egdb_counter_limit(const Board *b)
{
    enum { SHORT = 10, LONG = 30 };
    return rules_counter_draw(b, (DrawCounters){SHORT, SHORT, 0}) != GAME_ONGOING ? SHORT : LONG;
}

// ---- Files ----------------------------------------------------------------------------------

// A block's own check: its bytes' FNV-1a, folded to 32 bits.
static uint32_t block_check(const uint8_t *p, size_t n)
{
    uint64_t h = util_fnv1a(p, n, UTIL_FNV_BASIS);
    return (uint32_t)(h ^ (h >> 32));
}

// Run-length codes n values into out (at least 3 * n bytes); returns the bytes written.
static size_t rle_encode(const uint8_t *v, size_t n, uint8_t *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t run = 1;
        while (i + run < n && v[i + run] == v[i])
            run++;
        out[o++] = v[i];
        size_t r = run - 1;
        do {
            out[o++] = (uint8_t)((r & 0x7F) | (r >= 0x80 ? 0x80 : 0));
            r >>= 7;
        } while (r);
        i += run;
    }
    return o;
}

// Decodes a block of exactly n values; false when the data does not give exactly that.
static bool rle_decode(const uint8_t *in, size_t len, uint8_t *v, size_t n)
{
    size_t o = 0, i = 0;
    while (o < n) {
        if (i >= len)
            return false;
        uint8_t val = in[i++];
        uint64_t r = 0;
        for (int shift = 0;; shift += 7) {
            if (i >= len || shift > 28)
                return false;
            uint8_t c = in[i++];
            r |= (uint64_t)(c & 0x7F) << shift;
            if (!(c & 0x80))
                break;
        }
        if (r + 1 > n - o)
            return false;
        memset(v + o, val, r + 1);
        o += r + 1;
    }
    return i == len;
}

static bool fail(char *err, size_t errlen, const char *fmt, const char *what)
{
    snprintf(err, errlen, fmt, what);
    return false;
}

// The values of block bl: EGDB_BLOCK of them, fewer in the last block.
static size_t block_count(uint64_t n, uint32_t bl)
{
    uint64_t left = n - (uint64_t)bl * EGDB_BLOCK;
    return (size_t)(left < EGDB_BLOCK ? left : EGDB_BLOCK);
}

bool egdb_write(const char *path, EgdbMaterial m, EgdbKind kind, const uint8_t *values, char *err,
                size_t errlen)
{
    uint64_t n = egdb_slice_size(m);
    uint32_t nblocks = (uint32_t)((n + EGDB_BLOCK - 1) / EGDB_BLOCK);
    uint8_t *filled = malloc(EGDB_BLOCK), *buf = malloc(BLOCK_BYTES_MAX);
    uint8_t *index = calloc((size_t)nblocks + 1, 8);
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!filled || !buf || !index || !f) {
        free(filled), free(buf), free(index);
        if (f)
            fclose(f);
        return fail(err, errlen, "cannot write %s", tmp);
    }
    uint8_t header[HEADER_BYTES] = {0};
    fwrite(header, 1, HEADER_BYTES, f); // written again at the end
    fwrite(index, 8, (size_t)nblocks + 1, f);
    uint64_t sum = UTIL_FNV_BASIS, off = 0;
    uint8_t last = EGDB_DRAW;
    for (uint32_t bl = 0; bl < nblocks; bl++) {
        size_t count = block_count(n, bl);
        for (size_t i = 0; i < count; i++) {
            uint8_t v = values[(uint64_t)bl * EGDB_BLOCK + i];
            filled[i] = last = v == EGDB_NONE ? last : v;
        }
        sum = util_fnv1a(filled, count, sum);
        size_t len = BLOCK_CHECK_BYTES + rle_encode(filled, count, buf + BLOCK_CHECK_BYTES);
        util_put_le(buf, block_check(buf + BLOCK_CHECK_BYTES, len - BLOCK_CHECK_BYTES), 4);
        util_put_le(index + 8 * (size_t)bl, off, 8);
        fwrite(buf, 1, len, f);
        off += len;
    }
    util_put_le(index + 8 * (size_t)nblocks, off, 8);
    memcpy(header, magic(kind), 8);
    util_put_le(header + 8, EGDB_VERSION, 4);
    header[12] = m.wm, header[13] = m.wk, header[14] = m.bm, header[15] = m.bk;
    util_put_le(header + 16, n, 8);
    util_put_le(header + 24, EGDB_BLOCK, 4);
    util_put_le(header + 28, nblocks, 4);
    util_put_le(header + 32, sum, 8);
    util_put_le(header + 40, off, 8);
    util_put_le(
        header + 48,
        util_fnv1a(index, 8 * ((size_t)nblocks + 1), util_fnv1a(header, 48, UTIL_FNV_BASIS)), 8);
    bool ok = fseek(f, 0, SEEK_SET) == 0 && fwrite(header, 1, HEADER_BYTES, f) == HEADER_BYTES &&
              fwrite(index, 8, (size_t)nblocks + 1, f) == (size_t)nblocks + 1;
    ok = fclose(f) == 0 && ok;
    free(filled), free(buf), free(index);
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        return fail(err, errlen, "cannot write %s", path);
    }
    return true;
}

// An open balance: its header and block index in memory, the blocks read from the file when a
// probe needs one (so that opening a set of gigabytes reads only its indexes).
typedef struct Slice {
    EgdbMaterial m;
    uint64_t n;
    uint32_t nblocks;
    uint32_t version;
    PlatformFile file;
    uint8_t *index;      // nblocks + 1 offsets
    uint64_t data_at;    // file offset of the first block
    uint64_t data_size;  // bytes of all blocks
    uint64_t values_sum; // the header's checksum of every value (egdb_read checks it)
    atomic_bool broken;  // a block failed its check: the balance is no longer probed
    char name[24];
} Slice;

static void close_slice(Slice *s)
{
    platform_close(&s->file);
    free(s->index);
    s->index = NULL;
}

// Opens a file into s and checks what can be checked without reading the blocks: the header,
// its version and balance, the size, and the checksum of the header and block index. Version
// 1 (blocks with no check of their own) is read by egdb_read only, to rewrite it.
static bool open_slice(const char *path, EgdbMaterial m, EgdbKind kind, Slice *s, bool old_ok,
                       char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    uint64_t file_size = 0;
    if (!platform_open_read(path, &s->file, &file_size))
        return fail(err, errlen, "%s: not found", path);
    uint8_t h[HEADER_BYTES];
    const char *why = NULL;
    uint64_t n = egdb_slice_size(m);
    uint32_t nblocks = 0;
    if (!platform_read_at(s->file, h, HEADER_BYTES, 0))
        why = "%s: truncated or unreadable";
    else if (memcmp(h, magic(kind), 8) != 0)
        why = memcmp(h, magic(!kind), 8) == 0 ? "%s: a table of the other model (strict/loose)"
                                              : "%s: not a Damka database file";
    else if ((uint32_t)util_get_le(h + 8, 4) != EGDB_VERSION &&
             !(old_ok && (uint32_t)util_get_le(h + 8, 4) == 1))
        why = "%s: another version of the format (make egdb rewrites it)";
    else if (h[12] != m.wm || h[13] != m.wk || h[14] != m.bm || h[15] != m.bk ||
             util_get_le(h + 16, 8) != n || (uint32_t)util_get_le(h + 24, 4) != EGDB_BLOCK ||
             (nblocks = (uint32_t)util_get_le(h + 28, 4)) != (n + EGDB_BLOCK - 1) / EGDB_BLOCK)
        why = "%s: header does not match its balance";
    else if (file_size != HEADER_BYTES + 8 * ((uint64_t)nblocks + 1) + util_get_le(h + 40, 8))
        why = "%s: truncated or too long";
    size_t index_bytes = 8 * ((size_t)nblocks + 1);
    if (!why && (!(s->index = malloc(index_bytes)) ||
                 !platform_read_at(s->file, s->index, index_bytes, HEADER_BYTES)))
        why = "%s: truncated or unreadable";
    else if (!why && util_get_le(h + 48, 8) !=
                         util_fnv1a(s->index, index_bytes, util_fnv1a(h, 48, UTIL_FNV_BASIS)))
        why = "%s: corrupt header or index (checksum)";
    if (why) {
        close_slice(s);
        return fail(err, errlen, why, path);
    }
    s->m = m, s->n = n, s->nblocks = nblocks, s->version = (uint32_t)util_get_le(h + 8, 4);
    s->data_at = HEADER_BYTES + index_bytes;
    s->data_size = util_get_le(h + 40, 8);
    s->values_sum = util_get_le(h + 32, 8);
    egdb_file_name(m, kind, s->name, sizeof s->name);
    return true;
}

// Reads block bl of s into out (block_count values): false if it is unreadable, fails its
// check or does not decode to exactly its values.
static bool read_block(const Slice *s, uint32_t bl, uint8_t *out)
{
    uint64_t a = util_get_le(s->index + 8 * (size_t)bl, 8),
             z = util_get_le(s->index + 8 * (size_t)bl + 8, 8);
    size_t check = s->version == 1 ? 0 : BLOCK_CHECK_BYTES;
    if (a > z || z > s->data_size || z - a < check || z - a > BLOCK_BYTES_MAX)
        return false;
    uint8_t buf[BLOCK_BYTES_MAX];
    size_t len = (size_t)(z - a);
    if (!platform_read_at(s->file, buf, len, s->data_at + a))
        return false;
    if (check && (uint32_t)util_get_le(buf, 4) != block_check(buf + check, len - check))
        return false;
    return rle_decode(buf + check, len - check, out, block_count(s->n, bl));
}

bool egdb_read(const char *path, EgdbMaterial m, EgdbKind kind, uint8_t *values, bool *old_version,
               char *err, size_t errlen)
{
    Slice s;
    if (!open_slice(path, m, kind, &s, true, err, errlen))
        return false;
    // Every block must decode, and all of them must give the checksum of the values.
    uint64_t sum = UTIL_FNV_BASIS;
    bool ok = true;
    for (uint32_t bl = 0; bl < s.nblocks && ok; bl++) {
        uint8_t *out = values + (uint64_t)bl * EGDB_BLOCK;
        if ((ok = read_block(&s, bl, out)))
            sum = util_fnv1a(out, block_count(s.n, bl), sum);
    }
    *old_version = s.version != EGDB_VERSION;
    close_slice(&s);
    if (!ok)
        return fail(err, errlen, "%s: corrupt block", path);
    if (sum != s.values_sum)
        return fail(err, errlen, "%s: corrupt data (checksum)", path);
    return true;
}

// ---- Probing --------------------------------------------------------------------------------

struct Egdb {
    Slice *slices[EGDB_KINDS][SLOTS][SLOTS][SLOTS][SLOTS];
    int count, loose_count; // balances loaded of each kind
    int max_pieces;
};

typedef struct OpenJob {
    Egdb *db;
    const char *dir;
    FILE *log;
    bool complete;
} OpenJob;

// Opens one file of balance m; false (said on the log unless it is only missing) if it fails.
static bool open_kind(OpenJob *j, EgdbMaterial m, EgdbKind kind)
{
    char name[64], path[4200], err[4400];
    egdb_file_name(m, kind, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", j->dir, name);
    Slice *s = malloc(sizeof *s);
    if (s && open_slice(path, m, kind, s, false, err, sizeof err)) {
        j->db->slices[kind][m.wm][m.wk][m.bm][m.bk] = s;
        return true;
    }
    free(s);
    if (j->log && strstr(err, "not found") == NULL)
        fprintf(j->log, "egdb: %s (skipped)\n", err);
    return false;
}

static void open_one(EgdbMaterial m, void *ctx)
{
    OpenJob *j = ctx;
    if (!open_kind(j, m, EGDB_STRICT)) {
        j->complete = false;
        return;
    }
    j->db->count++;
    // The loose table, for balances with men (with kings alone it is the strict one).
    if (m.wm + m.bm > 0 && open_kind(j, m, EGDB_LOOSE))
        j->db->loose_count++;
}

Egdb *egdb_open(const char *dir, int max_pieces, FILE *log, char *err, size_t errlen)
{
    init_binom();
    Egdb *db = calloc(1, sizeof *db);
    if (!db) {
        fail(err, errlen, "%s", "out of memory");
        return NULL;
    }
    if (max_pieces > EGDB_PIECES_MAX)
        max_pieces = EGDB_PIECES_MAX;
    int complete = 1; // every balance of up to this many pieces is loaded
    for (int n = 2; n <= max_pieces; n++) {
        OpenJob j = {db, dir, log, true};
        egdb_each_balance(n, open_one, &j);
        if (j.complete && complete == n - 1)
            complete = n;
    }
    db->max_pieces = complete >= 2 ? complete : 0;
    if (db->count == 0) {
        fail(err, errlen, "no database file in %s", dir);
        free(db);
        return NULL;
    }
    return db;
}

void egdb_close(Egdb *db)
{
    if (!db)
        return;
    Slice **all = &db->slices[0][0][0][0][0];
    for (size_t i = 0; i < sizeof db->slices / sizeof *all; i++)
        if (all[i]) {
            close_slice(all[i]);
            free(all[i]);
        }
    free(db);
}

int egdb_max_pieces(const Egdb *db) { return db ? db->max_pieces : 0; }

int egdb_count(const Egdb *db) { return db ? db->count : 0; }

int egdb_loose_count(const Egdb *db) { return db ? db->loose_count : 0; }

int egdb_probe(const Egdb *db, const Board *b, EgdbKind kind, EgdbCache *cache)
{
    EgdbMaterial m = egdb_material_of(b);
    if (egdb_pieces(m) > EGDB_PIECES_MAX || m.wm >= SLOTS || m.wk >= SLOTS || m.bm >= SLOTS ||
        m.bk >= SLOTS)
        return -1;
    if (kind == EGDB_LOOSE && m.wm + m.bm == 0)
        kind = EGDB_STRICT; // kings alone: one model
    Slice *s = db->slices[kind][m.wm][m.wk][m.bm][m.bk];
    uint64_t idx;
    if (!s || !egdb_index(b, &idx) || idx >= s->n ||
        atomic_load_explicit(&s->broken, memory_order_relaxed))
        return -1;
    uint32_t bl = (uint32_t)(idx / EGDB_BLOCK);
    unsigned slot = (unsigned)(((uintptr_t)s >> 4) * 31 + bl) % EGDB_CACHE_BLOCKS;
    if (cache->slice[slot] != s || cache->block[slot] != bl) {
        cache->slice[slot] = NULL; // until the block is whole
        if (!read_block(s, bl, cache->data[slot])) {
            // Damaged since it was opened (or on the disk): say so once, probe it no more.
            if (!atomic_exchange(&s->broken, true))
                fprintf(stderr,
                        "damka: endgame database %s: block %u is corrupt or unreadable; "
                        "not used\n",
                        s->name, bl);
            return -1;
        }
        cache->slice[slot] = s;
        cache->block[slot] = bl;
        cache->misses++;
    } else {
        cache->hits++;
    }
    return cache->data[slot][idx % EGDB_BLOCK];
}

bool egdb_broken(const Egdb *db, EgdbMaterial m)
{
    for (int k = 0; k < EGDB_KINDS; k++) {
        const Slice *s = db->slices[k][m.wm][m.wk][m.bm][m.bk];
        if (s && atomic_load_explicit(&s->broken, memory_order_relaxed))
            return true;
    }
    return false;
}

// ---- The generator's primitives -------------------------------------------------------------

int egdb_unmoves(const Board *q, Board *out, int max)
{
    Side x = side_flip(q->side); // the side that has just moved
    Bitboard occ = q->pieces[0] | q->pieces[1];
    int n = 0;
    for (Bitboard bb = q->pieces[x]; bb && n < max; bb = bb_pop(bb)) {
        Bitboard at = bb & -bb;
        bool king = (q->kings & at) != 0;
        for (int d = 0; d < DIR_COUNT && n < max; d++) {
            // A man came from one square behind it; a king from any square of an empty ray.
            bool backward =
                x == SIDE_WHITE ? (d == DIR_DR || d == DIR_DL) : (d == DIR_UR || d == DIR_UL);
            if (!king && !backward)
                continue;
            for (Bitboard from = bb_shift(at, d); from && !(from & occ) && n < max;
                 from = bb_shift(from, d)) {
                Board *p = &out[n];
                *p = *q;
                p->side = x;
                p->pieces[x] ^= at | from;
                if (king)
                    p->kings ^= at | from;
                p->key = board_compute_key(p);
                if (!movegen_has_capture(p)) // else the move was not legal: a capture was due
                    n++;
                if (!king)
                    break;
            }
        }
    }
    return n;
}

int egdb_men_advancement(const Board *b)
{
    int a = 0;
    for (uint32_t m = square_mask(b->pieces[SIDE_WHITE] & ~b->kings); m; m &= m - 1)
        a += 7 - __builtin_ctz(m) / 4; // rank 1 is squares 29-32
    for (uint32_t m = square_mask(b->pieces[SIDE_BLACK] & ~b->kings); m; m &= m - 1)
        a += __builtin_ctz(m) / 4;
    return a;
}

int egdb_each_balance(int pieces, void (*fn)(EgdbMaterial m, void *ctx), void *ctx)
{
    int count = 0;
    for (int wm = 0; wm <= pieces; wm++)
        for (int wk = 0; wm + wk <= pieces; wk++)
            for (int bm = 0; wm + wk + bm <= pieces; bm++) {
                int bk = pieces - wm - wk - bm;
                if (wm + wk > 0 && bm + bk > 0) {
                    fn((EgdbMaterial){(uint8_t)wm, (uint8_t)wk, (uint8_t)bm, (uint8_t)bk}, ctx);
                    count++;
                }
            }
    return count;
}
