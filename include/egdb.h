// SPDX-License-Identifier: MIT
// Endgame databases: the index of every position of a material balance, the value byte of a
// position, the file format, and probing with a per-thread block cache. The generator that
// writes the files is tools/egdb/.
//
// A value is the result for the side to move with a counter budget F: the number of plies of
// the counter at which the result still holds, against a limit of 30 plies (10 under 7.2.8). A
// win with budget F is a win when the counter is at most F; the same for a loss. Playing the
// move to the successor of largest budget wins within the counters: along such a line the
// counter never passes the budget before a move resets it.
//
// Two models, a file each (egdb_file_name). STRICT: the counter is the plies since the last
// capture or promotion (that of 7.2.4 and 7.2.6-7.2.8, never below the 7.2.5 one): with kings
// alone, or under 7.2.4/7.2.8, that is the rules; with men a man's step resets 7.2.5 and 7.2.6
// allows 60 or 120 plies, so its wins are wins but its draws may not be draws. LOOSE (balances
// with men): a man's step resets the counter too, as 7.2.5 does (not under 7.2.4/7.2.8), and
// 7.2.6 is left out: its wins may not be wins but its draws are draws. With kings alone the two
// are one. What a value means under the game's counters, and the score the search gives it:
// verdict.h.
#ifndef EGDB_H_INCLUDED
#define EGDB_H_INCLUDED

#include <stddef.h>
#include <stdio.h>

#include "board.h"
#include "rules.h"
#include "types.h"

enum {
    EGDB_PIECES_MAX = 7,
    EGDB_BLOCK = 4096, // positions per compressed block: one probe reads one block
    EGDB_DRAW = 0,
    EGDB_WIN = 1,     // 1 + F: the side to move wins with budget F (0..EGDB_F_MAX)
    EGDB_LOSS = 128,  // 128 + F: the side to move loses (the opponent wins) with F
    EGDB_F_MAX = 29,  // the largest budget a counter limit allows (30 plies - 1)
    EGDB_F_ANY = 31,  // no legal move: lost at any counter
    EGDB_NONE = 255,  // no position (an index hole); not stored in files
    EGDB_VERSION = 2, // 2: each block begins with a checksum of its own
};

typedef struct EgdbMaterial {
    uint8_t wm, wk, bm, bk; // white men, white kings, black men, black kings
} EgdbMaterial;

static inline int egdb_pieces(EgdbMaterial m) { return m.wm + m.wk + m.bm + m.bk; }
static inline bool egdb_is_win(int v) { return v >= EGDB_WIN && v < EGDB_LOSS; }
static inline bool egdb_is_loss(int v) { return v >= EGDB_LOSS && v < EGDB_NONE; }
static inline int egdb_budget(int v) { return egdb_is_win(v) ? v - EGDB_WIN : v - EGDB_LOSS; }

typedef enum EgdbKind { EGDB_STRICT, EGDB_LOOSE, EGDB_KINDS } EgdbKind;

// The material of b.
EgdbMaterial egdb_material_of(const Board *b);

// Number of index slots of a balance (both sides to move, holes included).
uint64_t egdb_slice_size(EgdbMaterial m);

// Number of placements of the men of a balance (white's times black's, holes included): the
// slice is, for each side to move, each placement's king placements in a row.
uint64_t egdb_placements(EgdbMaterial m);

// The index of b in its balance's slice. False when b is no position of an index (a man on
// its promotion rank).
bool egdb_index(const Board *b, uint64_t *idx);

// The position of index idx of balance m; false for a hole (men on one square).
bool egdb_unindex(EgdbMaterial m, uint64_t idx, Board *b);

// The file name of a balance, e.g. "2m1k-1m0k.dkb" (white's men and kings, then black's),
// ".dkl" for the loose model.
void egdb_file_name(EgdbMaterial m, EgdbKind kind, char *buf, size_t len);

// The counter limit of a position (plies): 10 where rule 7.2.8 applies, else 30 (7.2.5 and
// 7.2.4 at 15 moves; the 30- and 60-move rules of 7.2.6 never bind first). The count of 7.2.7
// runs from when a lone king came to the long diagonal, which is not part of a position: the
// databases leave that rule to the search, which keeps its counter.
int egdb_counter_limit(const Board *b);

// ---- Files -------------------------------------------------------------------------------------

// Writes the values of a balance (EGDB_NONE slots become their neighbour's value, so holes and
// capture positions, which are never probed, cost nothing). False with a reason in err.
bool egdb_write(const char *path, EgdbMaterial m, EgdbKind kind, const uint8_t *values, char *err,
                size_t errlen);

// Reads a balance's file back into values (egdb_slice_size(m) bytes), checking every block and
// the checksum of all values. False with one line in err when the file is missing, truncated,
// corrupt or of another version; version 1 (no check per block) is read, with *old_version
// set, so that the generator rewrites it.
bool egdb_read(const char *path, EgdbMaterial m, EgdbKind kind, uint8_t *values, bool *old_version,
               char *err, size_t errlen);

// ---- The generator's primitives -----------------------------------------------------------------

// The positions from which q arises by one quiet move that stays in q's balance (a king move,
// or a man's step that does not promote), legal there (no capture was due). Writes at most max
// boards to out; returns their count.
int egdb_unmoves(const Board *q, Board *out, int max);

// The ranks the men of b have come up from their first rank, summed: a man's step adds one.
int egdb_men_advancement(const Board *b);

// Calls fn for every balance of exactly `pieces` pieces with at least one piece a side;
// returns how many.
int egdb_each_balance(int pieces, void (*fn)(EgdbMaterial m, void *ctx), void *ctx);

// ---- Probing -----------------------------------------------------------------------------------

typedef struct Egdb Egdb;

// Per-thread cache of decompressed blocks.
enum { EGDB_CACHE_BLOCKS = 1024 };
typedef struct EgdbCache {
    const void *slice[EGDB_CACHE_BLOCKS];
    uint32_t block[EGDB_CACHE_BLOCKS];
    uint8_t data[EGDB_CACHE_BLOCKS][EGDB_BLOCK];
    uint64_t hits, misses;
} EgdbCache;

// Opens every database file of up to max_pieces pieces found in dir, reading its header and
// block index (a file descriptor each, held until egdb_close). A file whose header or index is
// corrupt, that is truncated or of another version is skipped with one line on log (if not
// NULL). Returns NULL when none was found (err says why); else the set, which the caller frees.
Egdb *egdb_open(const char *dir, int max_pieces, FILE *log, char *err, size_t errlen);
void egdb_close(Egdb *db);

// Pieces of the largest complete set of balances loaded (0 if none).
int egdb_max_pieces(const Egdb *db);

// Number of balances loaded (strict tables), and of loose tables loaded.
int egdb_count(const Egdb *db);
int egdb_loose_count(const Egdb *db);

// The value of b (a position with no capture pending) in the model `kind`, or -1 when that
// table is not loaded (the loose model of a balance of kings alone is its strict table).
// Blocks are read from the files when a probe needs them; a block that fails its check is
// reported once on stderr and its table is probed no more (-1).
int egdb_probe(const Egdb *db, const Board *b, EgdbKind kind, EgdbCache *cache);

// True when balance m was loaded and a block of one of its tables has failed its check since.
bool egdb_broken(const Egdb *db, EgdbMaterial m);

#endif
