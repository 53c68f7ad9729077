// SPDX-License-Identifier: MIT
// damka-book: builds, merges, learns and shows opening books (include/book.h, docs/formats.md).
//   --pdn GAMES.pdn --out BOOK [--plies N]   the first N plies (20) of finished games: every
//       move played counts a game with its result for the side that played it; a move's weight
//       is its games, its score learned from them (see learn_scores)
//   --learn BOOK GAMES.pdn [--plies N]       the same counts added to BOOK's moves (new moves of
//       those games added), the scores learned again from the search's score and all the
//       counts: a line that loses is played less
//   --merge A B --out C                      both books in one, counts and weights summed
//   --dump BOOK [FEN [MOVES...]]             the moves of a position (the start by default)
//   --stats BOOK                             positions, moves, and the depth of the main line
//   --expand --out BOOK [--plies P (16)] [--nodes N (300000)] [--margin M (30)]
//            [--openings FILE] [--threads T (2)] [--lines L (8)]
//       drop-out expansion by Damka's own searches: from the start position (or each position of
//       an opening file) every move within M centi-men of the best (L lines of MultiPV sharing
//       N nodes) enters
//       the book with its score; the best move's position is expanded P - 1 plies further, the
//       others' P - 2, so the best lines go deepest. Resumable: BOOK.state keeps the positions
//       still to search, and the book is written every few positions.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book.h"
#include "engine.h"
#include "match.h"
#include "notation.h"
#include "util.h"

enum {
    PLIES_DEFAULT = 20,
    WEIGHT_MAX = 65535,
    EXPAND_PLIES = 16,
    EXPAND_NODES = 300000,
    EXPAND_MARGIN = 30,
    EXPAND_LINES = 8, // MultiPV lines searched (at most; --lines chooses fewer)
    SAVE_EVERY = 10,  // positions between two saves of the book and its queue
    QUEUE_MAX = 1 << 20,
};

// The moves being built, with a hash index by position and move (slot: entry index + 1).
typedef struct Entries {
    BookEntry *e;
    size_t n, cap;
    uint32_t *slot;
    size_t nslot; // a power of two, at least twice n
} Entries;

static void usage(FILE *out)
{
    fprintf(out, "usage: damka-book --pdn GAMES.pdn --out BOOK [--plies N (20)]\n"
                 "       damka-book --learn BOOK GAMES.pdn [--plies N]\n"
                 "       damka-book --merge A B --out C\n"
                 "       damka-book --dump BOOK [FEN [MOVES...]]\n"
                 "       damka-book --stats BOOK\n"
                 "       damka-book --expand --out BOOK [--plies P] [--nodes N] [--margin M]\n"
                 "                  [--openings FILE] [--threads T] [--lines L (1-8)]\n");
}

static bool same_move(const BookEntry *a, const BookEntry *b)
{
    return a->key == b->key && a->from == b->from && a->to == b->to && a->captured == b->captured &&
           a->flags == b->flags;
}

static size_t slot_of(const Entries *s, const BookEntry *e)
{
    uint64_t h =
        e->key ^
        ((uint64_t)e->from << 8 | e->to | (uint64_t)e->flags << 16) * 0x9E3779B97F4A7C15ULL ^
        (uint64_t)e->captured * 0xC2B2AE3D27D4EB4FULL;
    return (size_t)(h ^ h >> 29) & (s->nslot - 1);
}

static void index_insert(Entries *s, size_t i)
{
    size_t k = slot_of(s, &s->e[i]);
    while (s->slot[k])
        k = (k + 1) & (s->nslot - 1);
    s->slot[k] = (uint32_t)(i + 1);
}

static void out_of_memory(void)
{
    fprintf(stderr, "damka-book: out of memory\n");
    exit(1);
}

static BookEntry *add(Entries *s, const BookEntry *e)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 4096;
        BookEntry *p = realloc(s->e, cap * sizeof *p);
        uint32_t *slot = calloc(2 * cap, sizeof *slot);
        if (!p || !slot || cap >= UINT32_MAX)
            out_of_memory();
        s->e = p, s->cap = cap;
        free(s->slot);
        s->slot = slot, s->nslot = 2 * cap;
        for (size_t i = 0; i < s->n; i++)
            index_insert(s, i);
    }
    s->e[s->n] = *e;
    index_insert(s, s->n);
    return &s->e[s->n++];
}

// The entry of s for the same position and move as e, or NULL.
static BookEntry *find(Entries *s, const BookEntry *e)
{
    if (!s->nslot)
        return NULL;
    for (size_t k = slot_of(s, e); s->slot[k]; k = (k + 1) & (s->nslot - 1))
        if (same_move(&s->e[s->slot[k] - 1], e))
            return &s->e[s->slot[k] - 1];
    return NULL;
}

// Learning: a move's score is its search's score, worth LEARN_PRIOR_GAMES games, blended with
// the mean result of the games that played it (LEARN_WIN_CP for a won game, minus that for a
// lost one), so that one lucky game cannot make a line the main one and a line that keeps
// losing sinks below the margin. A move that only games gave has a prior of 0.
enum { LEARN_PRIOR_GAMES = 8, LEARN_WIN_CP = 100 };

static int64_t games_of(const BookEntry *e) { return (int64_t)e->wins + e->draws + e->losses; }

// The score of e's search before its games, from its learned score and its counts.
static int64_t prior_of(const BookEntry *e)
{
    int64_t n = games_of(e), net = (int64_t)e->wins - e->losses;
    return ((LEARN_PRIOR_GAMES + n) * e->score - net * LEARN_WIN_CP) / LEARN_PRIOR_GAMES;
}

typedef struct Before {
    int64_t prior, games;
} Before;

// What learning needs to know of s's moves before new games are counted.
static Before *before_games(const Entries *s)
{
    Before *b = malloc((s->n + 1) * sizeof *b);
    if (!b)
        out_of_memory();
    for (size_t i = 0; i < s->n; i++)
        b[i] = (Before){prior_of(&s->e[i]), games_of(&s->e[i])};
    return b;
}

// Scores and weights after new games: the first nb moves had `before`, the rest are new (prior
// 0, no games). A move's weight grows by its new games.
static void learn_scores(Entries *s, const Before *before, size_t nb)
{
    for (size_t i = 0; i < s->n; i++) {
        BookEntry *e = &s->e[i];
        int64_t prior = i < nb ? before[i].prior : 0, old = i < nb ? before[i].games : 0;
        int64_t n = games_of(e), net = (int64_t)e->wins - e->losses;
        if (n == old)
            continue;
        int64_t score = (LEARN_PRIOR_GAMES * prior + net * LEARN_WIN_CP) / (LEARN_PRIOR_GAMES + n);
        e->score = (int16_t)(score > 30000 ? 30000 : score < -30000 ? -30000 : score);
        int64_t w = (int64_t)e->weight + (n - old);
        e->weight = (uint16_t)(w > WEIGHT_MAX ? WEIGHT_MAX : w < 1 ? 1 : w);
    }
}

static void load(const char *path, Entries *s)
{
    char err[BOOK_ERR_MAX];
    Book *b = book_open(path, err, sizeof err);
    if (!b) {
        fprintf(stderr, "damka-book: %s\n", err);
        exit(1);
    }
    for (size_t i = 0; i < book_entries(b); i++)
        add(s, book_entry(b, i));
    book_close(b);
}

static void save(const char *path, Entries *s)
{
    char err[BOOK_ERR_MAX];
    if (!book_write(path, s->e, s->n, err, sizeof err)) {
        fprintf(stderr, "damka-book: %s\n", err);
        exit(1);
    }
    printf("damka-book: %s: %zu moves\n", path, s->n);
}

// Adds the first `plies` moves of the finished games of a PDN file to s; returns the games.
static int add_games(const char *pdn, int plies, Entries *s)
{
    char err[300];
    char *text = pdn_read_text_file(pdn, err, sizeof err);
    if (!text) {
        fprintf(stderr, "damka-book: %s\n", err);
        exit(1);
    }
    static PdnGame g;
    size_t pos = 0;
    int games = 0, r;
    while ((r = pdn_read(text, &pos, &g, err, sizeof err)) != 0) {
        int white_result = strcmp(g.result, "1-0") == 0 || strcmp(g.result, "2-0") == 0       ? 1
                           : strcmp(g.result, "0-1") == 0 || strcmp(g.result, "0-2") == 0     ? -1
                           : strcmp(g.result, "1/2-1/2") == 0 || strcmp(g.result, "1-1") == 0 ? 0
                                                                                              : 2;
        if (r < 0 || white_result == 2)
            continue; // unreadable, or no result
        games++;
        Board b = g.start;
        for (int i = 0; i < g.nmoves && i < plies; i++) {
            BookEntry e;
            book_entry_of(&b, &g.moves[i], &e);
            BookEntry *have = find(s, &e);
            if (!have)
                have = add(s, &e);
            int result = b.side == SIDE_WHITE ? white_result : -white_result;
            if (result > 0)
                have->wins++;
            else if (result < 0)
                have->losses++;
            else
                have->draws++;
            engine_board_after(&b, &g.moves[i], &b);
        }
    }
    free(text);
    return games;
}

// The moves of position b in the book, one line each.
static void dump_position(const Book *book, const Board *b)
{
    BookEntry e[BOOK_MOVES_MAX];
    Move m[BOOK_MOVES_MAX];
    int n = book_probe(book, b, e, m, BOOK_MOVES_MAX);
    char fen[FEN_MAX];
    notation_fen_algebraic(b, fen, sizeof fen);
    printf("%s: %d book move%s\n", fen, n, n == 1 ? "" : "s");
    for (int i = 0; i < n; i++) {
        char text[MOVE_TEXT_MAX];
        notation_move(&m[i], MOVE_FMT_ALG, text, sizeof text);
        printf("  %-12s weight %5u  score %+5d  won %u drawn %u lost %u\n", text, e[i].weight,
               e[i].score, e[i].wins, e[i].draws, e[i].losses);
    }
}

// Positions, moves, and the depth of the main line from the start (the heaviest move each ply).
static void stats(const Book *book)
{
    size_t positions = 0;
    for (size_t i = 0; i < book_entries(book); i++)
        positions += i == 0 || book_entry(book, i)->key != book_entry(book, i - 1)->key;
    Board b;
    board_start(&b);
    int depth = 0;
    for (; depth < MATCH_GAME_PLIES_MAX; depth++) {
        BookEntry e[BOOK_MOVES_MAX];
        Move m[BOOK_MOVES_MAX];
        int n = book_probe(book, &b, e, m, BOOK_MOVES_MAX), best = 0;
        if (n == 0)
            break;
        for (int i = 1; i < n; i++)
            if (e[i].weight > e[best].weight)
                best = i;
        engine_board_after(&b, &m[best], &b);
    }
    printf("positions %zu, moves %zu, main line %d plies\n", positions, book_entries(book), depth);
}

static int dump(int argc, char **argv)
{
    char err[BOOK_ERR_MAX];
    Book *book = book_open(argv[0], err, sizeof err);
    if (!book) {
        fprintf(stderr, "damka-book: %s\n", err);
        return 1;
    }
    Board b;
    if (argc > 1 && !notation_parse_fen(argv[1], &b, err, sizeof err)) {
        fprintf(stderr, "damka-book: %s\n", err);
        return 2;
    }
    if (argc <= 1)
        board_start(&b);
    for (int i = 2; i < argc; i++) {
        Move m;
        if (!notation_parse_move(&b, argv[i], MOVE_FMT_ALG, &m, err, sizeof err)) {
            fprintf(stderr, "damka-book: %s\n", err);
            return 2;
        }
        engine_board_after(&b, &m, &b);
    }
    dump_position(book, &b);
    book_close(book);
    return 0;
}

// ---- Drop-out expansion ------------------------------------------------------------------

typedef struct Pending {
    int plies; // plies still to expand below this position
    char fen[FEN_MAX];
} Pending;

typedef struct Lines {
    int n;
    Score score[EXPAND_LINES + 1];
    Move move[EXPAND_LINES + 1];
    Depth depth[EXPAND_LINES + 1];
} Lines;

static void keep_line(void *ctx, const EngineInfo *r)
{
    Lines *l = ctx;
    if (r->multipv < 1 || r->multipv > EXPAND_LINES || r->pvlen < 1 || r->bound != BOUND_EXACT)
        return;
    int k = r->multipv;
    if (r->depth < l->depth[k])
        return;
    l->depth[k] = r->depth;
    l->score[k] = r->score;
    l->move[k] = r->pv[0];
    if (k > l->n)
        l->n = k;
}

static void save_state(const char *path, const Pending *q, size_t head, size_t tail)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return;
    for (size_t i = head; i < tail; i++)
        fprintf(f, "%d %s\n", q[i].plies, q[i].fen);
    if (fclose(f) == 0)
        rename(tmp, path);
}

// The positions searched so far (open addressing; a key of 0 is kept as 1).
typedef struct Keys {
    Key *k;
    size_t n, cap; // cap: a power of two, at least twice n
} Keys;

// Adds key; false when it was there already.
static bool keys_add(Keys *s, Key key)
{
    key = key ? key : 1;
    if (2 * (s->n + 1) > s->cap) {
        Keys t = {calloc(s->cap ? 2 * s->cap : 4096, sizeof(Key)), 0, s->cap ? 2 * s->cap : 4096};
        if (!t.k)
            out_of_memory();
        for (size_t i = 0; i < s->cap; i++)
            if (s->k[i])
                keys_add(&t, s->k[i]);
        free(s->k);
        *s = t;
    }
    size_t i = (size_t)(key ^ key >> 31) & (s->cap - 1);
    for (; s->k[i]; i = (i + 1) & (s->cap - 1))
        if (s->k[i] == key)
            return false;
    s->k[i] = key;
    s->n++;
    return true;
}

static int expand(const char *out, int plies, int64_t nodes, int margin, const char *openings,
                  int threads, int lines)
{
    static Entries s;
    static Pending q[QUEUE_MAX];
    static Keys searched_keys;
    size_t head = 0, tail = 0;
    char state[4200], err[BOOK_ERR_MAX];
    snprintf(state, sizeof state, "%s.state", out);
    FILE *sf = fopen(state, "r");
    if (sf) { // resume: the book so far and the positions still to search
        Book *b = book_open(out, err, sizeof err);
        for (size_t i = 0; b && i < book_entries(b); i++) {
            add(&s, book_entry(b, i));
            keys_add(&searched_keys, book_entry(b, i)->key);
        }
        book_close(b);
        char line[FEN_MAX + 32];
        while (tail < QUEUE_MAX && fgets(line, sizeof line, sf))
            if (sscanf(line, "%d %159s", &q[tail].plies, q[tail].fen) == 2)
                tail++;
        fclose(sf);
        printf("damka-book: resuming, %zu moves in the book, %zu positions to search\n", s.n, tail);
    } else if (openings) {
        FILE *f = fopen(openings, "r");
        Opening *o = NULL;
        int n = f ? openings_read(f, &o, err, sizeof err) : -1;
        if (f)
            fclose(f);
        if (n < 0) {
            fprintf(stderr, "damka-book: cannot read %s\n", openings);
            return 1;
        }
        for (int i = 0; i < n && tail < QUEUE_MAX; i++) {
            Board b = o[i].start;
            for (int k = 0; k < o[i].nmoves; k++)
                engine_board_after(&b, &o[i].moves[k], &b);
            notation_fen(&b, q[tail].fen, sizeof q[tail].fen);
            q[tail++].plies = plies;
        }
        free(o);
    } else {
        snprintf(q[tail].fen, sizeof q[tail].fen, "W:W21-32:B1-12");
        q[tail++].plies = plies;
    }
    Engine *e = engine_new();
    if (!e || !engine_set_threads(e, threads) || !engine_set_multipv(e, lines))
        return 1;
    double t0 = util_now_s();
    int searched = 0;
    while (head < tail) {
        Pending p = q[head++];
        if (!engine_set_position(e, p.fen, NULL, 0, MOVE_FMT_UCI, err, sizeof err) ||
            engine_game_result(e) != GAME_ONGOING ||
            !keys_add(&searched_keys, engine_board(e)->key))
            continue;
        Board b = *engine_board(e);
        Lines l;
        memset(&l, 0, sizeof l);
        EngineGo go;
        engine_go_depth(&go, 0);
        go.nodes = (uint64_t)nodes;
        if (!engine_go(e, &go, keep_line, NULL, &l))
            continue;
        engine_wait(e);
        for (int k = 1; k <= l.n; k++) {
            if (l.depth[k] == 0 || l.score[k] < l.score[1] - margin)
                continue;
            BookEntry ent;
            book_entry_of(&b, &l.move[k], &ent);
            int w = 100 - (l.score[1] - l.score[k]) * 90 / (margin > 0 ? margin : 1);
            ent.weight = (uint16_t)(w < 1 ? 1 : w);
            ent.score = (int16_t)(l.score[k] > 30000    ? 30000
                                  : l.score[k] < -30000 ? -30000
                                                        : l.score[k]);
            add(&s, &ent);
            int left = p.plies - (k == 1 ? 1 : 2); // the best line goes deepest
            if (left > 0 && tail < QUEUE_MAX) {
                Board child;
                engine_board_after(&b, &l.move[k], &child);
                notation_fen(&child, q[tail].fen, sizeof q[tail].fen);
                q[tail++].plies = left;
            }
        }
        if (++searched % SAVE_EVERY == 0 || head == tail) {
            book_write(out, s.e, s.n, err, sizeof err);
            save_state(state, q, head, tail);
            printf("damka-book: %d positions searched, %zu to go, %zu moves, %.0f s\n", searched,
                   tail - head, s.n, util_now_s() - t0);
            fflush(stdout);
        }
    }
    if (!book_write(out, s.e, s.n, err, sizeof err)) {
        fprintf(stderr, "damka-book: %s\n", err);
        return 1;
    }
    remove(state);
    printf("damka-book: %s done: %zu moves from %d positions searched in %.0f s\n", out, s.n,
           searched, util_now_s() - t0);
    engine_free(e);
    return 0;
}

int main(int argc, char **argv)
{
    util_standard_args(argc, argv, "damka-book", DAMKA_VERSION, usage);
    engine_library_init();
    const char *out = NULL;
    int64_t plies = PLIES_DEFAULT;
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--out") == 0)
            out = argv[i + 1];
        if (strcmp(argv[i], "--plies") == 0 && !util_parse_int(argv[i + 1], 1, 400, &plies)) {
            usage(stderr);
            return 2;
        }
    }
    static Entries s;
    if (argc >= 2 && strcmp(argv[1], "--expand") == 0 && out) {
        int64_t eplies = EXPAND_PLIES, nodes = EXPAND_NODES, margin = EXPAND_MARGIN, threads = 2,
                lines = EXPAND_LINES;
        const char *openings = NULL;
        for (int i = 2; i + 1 < argc; i++) {
            bool ok = true;
            if (strcmp(argv[i], "--plies") == 0)
                ok = util_parse_int(argv[i + 1], 1, 60, &eplies);
            else if (strcmp(argv[i], "--nodes") == 0)
                ok = util_parse_int(argv[i + 1], 1000, INT64_C(1) << 40, &nodes);
            else if (strcmp(argv[i], "--margin") == 0)
                ok = util_parse_int(argv[i + 1], 0, 1000, &margin);
            else if (strcmp(argv[i], "--threads") == 0)
                ok = util_parse_int(argv[i + 1], 1, 256, &threads);
            else if (strcmp(argv[i], "--lines") == 0)
                ok = util_parse_int(argv[i + 1], 1, EXPAND_LINES, &lines);
            else if (strcmp(argv[i], "--openings") == 0)
                openings = argv[i + 1];
            if (!ok) {
                usage(stderr);
                return 2;
            }
        }
        return expand(out, (int)eplies, nodes, (int)margin, openings, (int)threads, (int)lines);
    }
    if (argc >= 3 && strcmp(argv[1], "--pdn") == 0 && out) {
        int games = add_games(argv[2], (int)plies, &s);
        printf("damka-book: %d games of %s\n", games, argv[2]);
        learn_scores(&s, NULL, 0);
        save(out, &s);
        return 0;
    }
    if (argc >= 4 && strcmp(argv[1], "--learn") == 0) {
        load(argv[2], &s);
        size_t nb = s.n;
        Before *before = before_games(&s);
        int games = add_games(argv[3], (int)plies, &s);
        printf("damka-book: learned from %d games of %s\n", games, argv[3]);
        learn_scores(&s, before, nb);
        free(before);
        save(argv[2], &s);
        return 0;
    }
    if (argc >= 4 && strcmp(argv[1], "--merge") == 0 && out) {
        load(argv[2], &s);
        static Entries t;
        load(argv[3], &t);
        for (size_t i = 0; i < t.n; i++) {
            BookEntry *have = find(&s, &t.e[i]);
            if (!have) {
                add(&s, &t.e[i]);
                continue;
            }
            have->wins += t.e[i].wins, have->draws += t.e[i].draws, have->losses += t.e[i].losses;
            uint32_t w = (uint32_t)have->weight + t.e[i].weight;
            have->weight = (uint16_t)(w > WEIGHT_MAX ? WEIGHT_MAX : w);
        }
        save(out, &s);
        return 0;
    }
    if (argc >= 3 && strcmp(argv[1], "--dump") == 0)
        return dump(argc - 2, argv + 2);
    if (argc == 3 && strcmp(argv[1], "--stats") == 0) {
        char err[BOOK_ERR_MAX];
        Book *book = book_open(argv[2], err, sizeof err);
        if (!book) {
            fprintf(stderr, "damka-book: %s\n", err);
            return 1;
        }
        stats(book);
        book_close(book);
        return 0;
    }
    usage(stderr);
    return 2;
}
