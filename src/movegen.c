// SPDX-License-Identifier: MIT
// Owns the rules of moving: quiet moves, captures (rules 4.1-4.14) and perft.
#include "movegen.h"

#include <assert.h>
#include <string.h>

#include "bitboard.h"
#include "board.h"
#include "tables.h"

// State of one capture search from one piece. Captured pieces stay in `enemy` until the move
// ends (Turkish strike, rule 4.7): they block the way and cannot be jumped again (4.9).
typedef struct CaptureGen {
    MoveList *list;
    int first;      // index in list of the first capture of this generation (for dedup)
    Bitboard enemy; // enemy pieces, the ones already jumped included
    Bitboard empty; // empty squares; the capturer's origin counts as empty
    Bitboard promo; // promotion rank of the side to move
    uint8_t from;
    bool all_routes; // list every route instead of one per resulting position
    bool crowned;    // a man that was crowned during this capture (rule 4.13)
    bool count_only; // bulk counting: one-piece captures are only counted, not listed
    int singles;     // one-piece captures counted in count_only mode
    int npath;
    uint8_t path[MAX_PATH];
} CaptureGen;

static inline uint8_t square_of(Bitboard bb) { return (uint8_t)g_bit_square[bb_lsb(bb)]; }

static inline Move *list_push(MoveList *list)
{
    assert(list->count < MAX_MOVES);
    return &list->moves[list->count++];
}

static void add_quiet(MoveList *list, Bitboard from, Bitboard to, bool promotes)
{
    Move *m = list_push(list);
    m->captured = 0;
    m->from = square_of(from);
    m->to = square_of(to);
    m->flags = promotes ? MOVE_PROMOTES : 0;
    m->npath = 1;
    m->path[0] = m->to;
}

// Records a finished capture unless an equal one (same from, to, captured set and piece) is
// already listed: different routes to the same position are one move.
static void emit_capture(CaptureGen *g, Bitboard to, Bitboard captured, bool promotes)
{
    // A one-piece capture has a single route, so it can never duplicate another move.
    bool single = (captured & (captured - 1)) == 0;
    if (single && g->count_only) {
        g->singles++;
        return;
    }
    uint8_t sq = square_of(to), flags = promotes ? MOVE_PROMOTES : 0;
    MoveList *list = g->list;
    if (!g->all_routes && !single)
        for (int i = g->first; i < list->count; i++) {
            const Move *o = &list->moves[i];
            if (o->to == sq && o->captured == captured && o->from == g->from && o->flags == flags)
                return;
        }
    if (list->count >= MAX_MOVES)
        return; // cannot happen with at most 12 pieces a side; never overflow regardless
    Move *m = list_push(list);
    m->captured = captured;
    m->from = g->from;
    m->to = sq;
    m->flags = flags;
    m->npath = (uint8_t)g->npath;
    if (!g->count_only) // a counted move is only compared, never printed
        memcpy(m->path, g->path, (size_t)g->npath);
}

// The first piece met from sq along direction d (0 if none before the edge).
static inline Bitboard first_blocker(Bitboard sq, int d, Bitboard empty)
{
    Bitboard x = bb_shift(sq, d);
    while (x & empty)
        x = bb_shift(x, d);
    return x;
}

// True when a king on sq can capture some piece not yet captured, in a direction other than
// straight back along `came` (that way lies the piece it just jumped).
static bool king_can_capture(const CaptureGen *g, Bitboard sq, Bitboard captured, int came)
{
    _Pragma("GCC unroll 4") for (int d = 0; d < DIR_COUNT; d++)
    {
        if (d == dir_reverse(came))
            continue;
        Bitboard x = first_blocker(sq, d, g->empty) & g->enemy & ~captured;
        if (x && (bb_shift(x, d) & g->empty))
            return true;
    }
    return false;
}

static inline void path_push(CaptureGen *g, Bitboard landing)
{
    assert(g->npath < MAX_PATH);
    g->path[g->npath++] = square_of(landing);
}

// Continues a capture with a king on sq (rules 4.2, 4.5, 4.6); came is the direction of the
// last jump, or -1 at the start. Returns false when no capture is possible from sq.
static bool king_jumps(CaptureGen *g, Bitboard sq, Bitboard captured, int came)
{
    bool found = false;
    _Pragma("GCC unroll 4") for (int d = 0; d < DIR_COUNT; d++)
    {
        if (came >= 0 && d == dir_reverse(came))
            continue;
        Bitboard victim = first_blocker(sq, d, g->empty) & g->enemy & ~captured;
        if (!victim)
            continue;
        Bitboard landings = 0;
        for (Bitboard x = bb_shift(victim, d) & g->empty; x; x = bb_shift(x, d) & g->empty)
            landings |= x;
        if (!landings)
            continue;
        found = true;
        Bitboard now = captured | victim, going_on = 0;
        for (Bitboard l = landings; l; l = bb_pop(l))
            if (king_can_capture(g, l & -l, now, d))
                going_on |= l & -l;
        // Rule 4.6: if some landing lets the capture continue, the king must take one of those.
        for (Bitboard l = going_on ? going_on : landings; l; l = bb_pop(l)) {
            Bitboard to = l & -l;
            path_push(g, to);
            if (going_on)
                king_jumps(g, to, now, d);
            else
                emit_capture(g, to, now, g->crowned);
            g->npath--;
        }
    }
    return found;
}

// Continues a capture with a man on sq (rules 4.1, 4.3, 4.13). Returns false if none is possible.
static bool man_jumps(CaptureGen *g, Bitboard sq, Bitboard captured)
{
    bool found = false;
    _Pragma("GCC unroll 4") for (int d = 0; d < DIR_COUNT; d++)
    {
        Bitboard victim = bb_shift(sq, d) & g->enemy & ~captured;
        Bitboard to = bb_shift(victim, d) & g->empty;
        if (!to)
            continue;
        found = true;
        path_push(g, to);
        Bitboard now = captured | victim;
        if (to & g->promo) {
            // Rule 4.13: crowned at once, and goes on capturing as a king if it can.
            g->crowned = true;
            if (!king_jumps(g, to, now, d))
                emit_capture(g, to, now, true);
            g->crowned = false;
        } else if (!man_jumps(g, to, now)) {
            emit_capture(g, to, now, false);
        }
        g->npath--;
    }
    return found;
}

#define ALWAYS_INLINE inline __attribute__((always_inline))

// What one side's pieces see: computed once per position and shared by the capture test, the
// capture generator and the quiet-move counter.
typedef struct SideView {
    Bitboard own, enemy, empty, men, kings;
    Bitboard jump_from[DIR_COUNT]; // squares from which a man could jump along d right now
    Bitboard man_jumpers;          // men that have a capture
} SideView;

static ALWAYS_INLINE void view_init(SideView *s, const Board *b, Side us)
{
    s->own = b->pieces[us];
    s->enemy = b->pieces[side_flip(us)];
    s->empty = BB_VALID & ~(s->own | s->enemy);
    s->men = s->own & ~b->kings;
    s->kings = s->own & b->kings;
    Bitboard any = 0;
    _Pragma("GCC unroll 4") for (int d = 0; d < DIR_COUNT; d++)
    {
        Bitboard f = bb_shift(bb_shift(s->empty, dir_reverse(d)) & s->enemy, dir_reverse(d));
        s->jump_from[d] = f;
        any |= f;
    }
    s->man_jumpers = s->men & any;
}

static ALWAYS_INLINE bool view_has_capture(const SideView *s)
{
    if (s->man_jumpers || !s->kings)
        return s->man_jumpers != 0;
    Bitboard hit = 0;
    _Pragma("GCC unroll 4") for (int d = 0; d < DIR_COUNT; d++)
    {
        Bitboard reach = s->kings | bb_ray_fill(s->kings, d, s->empty);
        hit |= bb_shift(bb_shift(reach, d) & s->enemy, d) & s->empty;
    }
    return hit != 0;
}

// Fast path for men: a one-piece jump that neither promotes nor can go on is found with
// whole-board shifts, no recursion. A man's first landing can go on along d2 exactly when any
// man standing there could jump along d2 (d2 is not back, so neither the jumped piece nor the
// vacated start square is involved). Fills simple[d] with the landing squares of such jumps
// along d, for men that have no other kind of jump; returns the men that need the full search.
static ALWAYS_INLINE Bitboard split_man_jumps(const SideView *s, Bitboard promo,
                                              Bitboard simple[DIR_COUNT])
{
    Bitboard full = 0;
    _Pragma("GCC unroll 4") for (int d = 0; d < DIR_COUNT; d++)
    {
        Bitboard landing = bb_shift(bb_shift(s->man_jumpers & s->jump_from[d], d), d);
        Bitboard again = promo;
        for (int d2 = 0; d2 < DIR_COUNT; d2++)
            if (d2 != dir_reverse(d))
                again |= s->jump_from[d2];
        full |= bb_shift(bb_shift(landing & again, dir_reverse(d)), dir_reverse(d));
        simple[d] = landing & ~again;
    }
    _Pragma("GCC unroll 4") for (int d = 0; d < DIR_COUNT; d++) simple[d] &=
        ~bb_shift(bb_shift(full, d), d);
    return full;
}

// Walks every capture route of the pieces in `pieces` (the recursive generator). Returns the
// number of captures counted but not listed.
static ALWAYS_INLINE int walk_capture_routes(const Board *b, const SideView *s, MoveList *list,
                                             Bitboard pieces, bool all_routes, bool count_only)
{
    CaptureGen g = {.list = list,
                    .first = list->count,
                    .all_routes = all_routes,
                    .count_only = count_only,
                    .enemy = s->enemy,
                    .promo = b->side == SIDE_WHITE ? BB_RANK8 : BB_RANK1};
    for (Bitboard p = pieces; p; p = bb_pop(p)) {
        Bitboard sq = p & -p;
        g.empty = s->empty | sq; // the capturer may pass over its own starting square
        g.from = square_of(sq);
        g.npath = 0;
        if (s->kings & sq)
            king_jumps(&g, sq, 0, -1);
        else
            man_jumps(&g, sq, 0);
    }
    return g.singles;
}

// Lists the captures of the side to move into list; in count_only mode one-piece captures are
// only counted. Returns the number of captures.
static ALWAYS_INLINE int gen_captures(const Board *b, const SideView *s, MoveList *list,
                                      bool all_routes, bool count_only)
{
    Bitboard simple[DIR_COUNT], promo = b->side == SIDE_WHITE ? BB_RANK8 : BB_RANK1;
    Bitboard full = split_man_jumps(s, promo, simple) | s->kings;
    int n = 0;
    _Pragma("GCC unroll 4") for (int d = 0; d < DIR_COUNT; d++)
    {
        Bitboard done = simple[d];
        if (count_only) {
            n += bb_count(done);
            continue;
        }
        for (; done; done = bb_pop(done)) {
            Bitboard to = done & -done, victim = bb_shift(to, dir_reverse(d));
            add_quiet(list, bb_shift(victim, dir_reverse(d)), to, false);
            list->moves[list->count - 1].captured = victim;
        }
    }
    if (full)
        n += walk_capture_routes(b, s, list, full, all_routes, count_only);
    return n + list->count;
}

static bool side_has_capture(const Board *b, Side us)
{
    SideView s;
    view_init(&s, b, us);
    return view_has_capture(&s);
}

bool movegen_has_capture(const Board *b) { return side_has_capture(b, b->side); }

bool movegen_opponent_has_capture(const Board *b)
{
    return side_has_capture(b, side_flip(b->side));
}

// The generators below take the side as a parameter and are inlined with a constant side (see
// the dispatchers), so the forward shifts and promotion ranks become constants.
static ALWAYS_INLINE int generate_side(const Board *b, MoveList *list, bool all_routes, Side us)
{
    SideView s;
    view_init(&s, b, us);
    list->count = 0;
    if (view_has_capture(&s))
        return gen_captures(b, &s, list, all_routes, false);
    Bitboard promo = us == SIDE_WHITE ? BB_RANK8 : BB_RANK1;
    int first_fwd = us == SIDE_WHITE ? DIR_UR : DIR_DR;
    for (int d = first_fwd; d < first_fwd + 2; d++)
        for (Bitboard t = bb_shift(s.men, d) & s.empty; t; t = bb_pop(t)) {
            Bitboard to = t & -t;
            add_quiet(list, bb_shift(to, dir_reverse(d)), to, (to & promo) != 0);
        }
    for (Bitboard k = s.kings; k; k = bb_pop(k))
        _Pragma("GCC unroll 4") for (int d = 0; d < DIR_COUNT;
                                     d++) for (Bitboard t = bb_ray_fill(k & -k, d, s.empty); t;
                                               t = bb_pop(t))
            add_quiet(list, k & -k, t & -t, false);
    return list->count;
}

static ALWAYS_INLINE int count_side(const Board *b, Side us)
{
    SideView s;
    view_init(&s, b, us);
    if (view_has_capture(&s)) {
        MoveList list;
        list.count = 0;
        return gen_captures(b, &s, &list, false, true);
    }
    int first_fwd = us == SIDE_WHITE ? DIR_UR : DIR_DR, n = 0;
    for (int d = first_fwd; d < first_fwd + 2; d++)
        n += bb_count(bb_shift(s.men, d) & s.empty);
    if (s.kings)
        _Pragma("GCC unroll 4") for (int d = 0; d < DIR_COUNT; d++) n +=
            bb_count(bb_ray_fill(s.kings, d, s.empty));
    return n;
}

static __attribute__((noinline)) int generate(const Board *b, MoveList *list, bool all_routes)
{
    return b->side == SIDE_WHITE ? generate_side(b, list, all_routes, SIDE_WHITE)
                                 : generate_side(b, list, all_routes, SIDE_BLACK);
}

int movegen_all(const Board *b, MoveList *list) { return generate(b, list, false); }

int movegen_routes(const Board *b, MoveList *list) { return generate(b, list, true); }

__attribute__((noinline)) int movegen_count(const Board *b)
{
    return b->side == SIDE_WHITE ? count_side(b, SIDE_WHITE) : count_side(b, SIDE_BLACK);
}

bool movegen_is_legal(const Board *b, const Move *m)
{
    MoveList list;
    movegen_all(b, &list);
    for (int i = 0; i < list.count; i++) {
        const Move *o = &list.moves[i];
        if (o->from == m->from && o->to == m->to && o->captured == m->captured &&
            o->flags == m->flags)
            return true;
    }
    return false;
}

static uint64_t perft_bulk(const Board *b, int depth);

// Value of a child in bulk perft: its move count one ply above the leaves, else its subtree.
static ALWAYS_INLINE uint64_t perft_child(const Board *child, int depth, Side them)
{
    return depth == 2 ? (uint64_t)count_side(child, them) : perft_bulk(child, depth - 1);
}

// Bulk-counting perft (depth >= 2) for a constant side. Children are made without a Zobrist
// update (perft never reads the key); quiet children are made straight from bitboards, with no
// move list. Measured in bench/RESULTS.md against generate + board_play.
static ALWAYS_INLINE uint64_t perft_bulk_side(const Board *b, int depth, Side us)
{
    SideView s;
    view_init(&s, b, us);
    Side them = side_flip(us);
    uint64_t n = 0;
    if (view_has_capture(&s)) {
        MoveList list;
        list.count = 0;
        gen_captures(b, &s, &list, false, false);
        for (int i = 0; i < list.count; i++) {
            Board child = *b;
            board_play_unkeyed(&child, &list.moves[i]);
            n += perft_child(&child, depth, them);
        }
        return n;
    }
    Bitboard promo = us == SIDE_WHITE ? BB_RANK8 : BB_RANK1;
    int first_fwd = us == SIDE_WHITE ? DIR_UR : DIR_DR;
    Board child = *b;
    child.side = them;
    for (int d = first_fwd; d < first_fwd + 2; d++)
        for (Bitboard t = bb_shift(s.men, d) & s.empty; t; t = bb_pop(t)) {
            Bitboard to = t & -t, step = to | bb_shift(to, dir_reverse(d));
            child.pieces[us] = s.own ^ step;
            child.kings = b->kings | (to & promo);
            n += perft_child(&child, depth, them);
        }
    for (Bitboard k = s.kings; k; k = bb_pop(k))
        _Pragma("GCC unroll 4") for (int d = 0; d < DIR_COUNT;
                                     d++) for (Bitboard t = bb_ray_fill(k & -k, d, s.empty); t;
                                               t = bb_pop(t))
        {
            Bitboard step = (k & -k) | (t & -t);
            child.pieces[us] = s.own ^ step;
            child.kings = b->kings ^ step;
            n += perft_child(&child, depth, them);
        }
    return n;
}

// Out of line so the recursion is not inlined into itself (one huge stack frame).
static __attribute__((noinline)) uint64_t perft_bulk(const Board *b, int depth)
{
    return b->side == SIDE_WHITE ? perft_bulk_side(b, depth, SIDE_WHITE)
                                 : perft_bulk_side(b, depth, SIDE_BLACK);
}

// Plain perft: every leaf is played (no bulk counting), through the public generator.
static uint64_t perft_plain(const Board *b, int depth)
{
    if (depth == 0)
        return 1;
    MoveList list;
    movegen_all(b, &list);
    uint64_t n = 0;
    for (int i = 0; i < list.count; i++) {
        Board child = *b;
        board_play_unkeyed(&child, &list.moves[i]); // perft never reads the key
        n += perft_plain(&child, depth - 1);
    }
    return n;
}

uint64_t movegen_perft(const Board *b, int depth, bool bulk)
{
    if (depth <= 0)
        return 1;
    if (!bulk)
        return perft_plain(b, depth);
    if (depth == 1)
        return (uint64_t)movegen_count(b);
    return perft_bulk(b, depth);
}
