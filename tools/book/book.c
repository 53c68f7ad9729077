// SPDX-License-Identifier: MIT
// damka-book: builds, merges, learns and shows opening books (include/book.h, docs/formats.md).
//   --pdn GAMES.pdn --out BOOK [--plies N]   the first N plies (20) of finished games: every
//       move played counts a game with its result for the side that played it; a move's weight
//       is its games, its score the games' mean result in centi-men (+100 all won, -100 all lost)
//   --learn BOOK GAMES.pdn [--plies N]       the same counts added to BOOK's moves (new moves of
//       those games added), the scores learned again from all the counts: a line that loses is
//       played less
//   --merge A B --out C                      both books in one, counts and weights summed
//   --dump BOOK [FEN [MOVES...]]             the moves of a position (the start by default)
//   --stats BOOK                             positions, moves, and the depth of the main line
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book.h"
#include "engine.h"
#include "match.h"
#include "notation.h"
#include "util.h"

enum { PLIES_DEFAULT = 20, WEIGHT_MAX = 65535 };

typedef struct Entries {
    BookEntry *e;
    size_t n, cap;
} Entries;

static void usage(FILE *out)
{
    fprintf(out, "usage: damka-book --pdn GAMES.pdn --out BOOK [--plies N (20)]\n"
                 "       damka-book --learn BOOK GAMES.pdn [--plies N]\n"
                 "       damka-book --merge A B --out C\n"
                 "       damka-book --dump BOOK [FEN [MOVES...]]\n"
                 "       damka-book --stats BOOK\n");
}

static BookEntry *add(Entries *s, const BookEntry *e)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 4096;
        BookEntry *p = realloc(s->e, cap * sizeof *p);
        if (!p) {
            fprintf(stderr, "damka-book: out of memory\n");
            exit(1);
        }
        s->e = p, s->cap = cap;
    }
    s->e[s->n] = *e;
    return &s->e[s->n++];
}

// The entry of s for the same position and move as e (a linear search: books are built once).
static BookEntry *find(Entries *s, const BookEntry *e)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->e[i].key == e->key && s->e[i].from == e->from && s->e[i].to == e->to &&
            s->e[i].captured == e->captured && s->e[i].flags == e->flags)
            return &s->e[i];
    return NULL;
}

// Weights and scores from the counts: weight = games, score = mean result (centi-men).
static void learn_scores(Entries *s)
{
    for (size_t i = 0; i < s->n; i++) {
        BookEntry *e = &s->e[i];
        uint64_t games = (uint64_t)e->wins + e->draws + e->losses;
        if (!games)
            continue;
        e->weight = (uint16_t)(games > WEIGHT_MAX ? WEIGHT_MAX : games);
        e->score = (int16_t)((100 * ((int64_t)e->wins - (int64_t)e->losses)) / (int64_t)games);
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
    FILE *f = fopen(pdn, "rb");
    if (!f) {
        fprintf(stderr, "damka-book: cannot open %s\n", pdn);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    char *text = malloc((size_t)size + 1);
    if (!text || fread(text, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "damka-book: cannot read %s\n", pdn);
        exit(1);
    }
    text[size] = '\0';
    fclose(f);
    static PdnGame g;
    size_t pos = 0;
    int games = 0, r;
    char err[128];
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
    if (argc >= 3 && strcmp(argv[1], "--pdn") == 0 && out) {
        int games = add_games(argv[2], (int)plies, &s);
        printf("damka-book: %d games of %s\n", games, argv[2]);
        learn_scores(&s);
        save(out, &s);
        return 0;
    }
    if (argc >= 4 && strcmp(argv[1], "--learn") == 0) {
        load(argv[2], &s);
        int games = add_games(argv[3], (int)plies, &s);
        printf("damka-book: learned from %d games of %s\n", games, argv[3]);
        learn_scores(&s);
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
