// SPDX-License-Identifier: MIT
// Opening-set builder: every distinct position after N plies from the start, written as the
// moves that reach it (one line each), optionally kept only when a shallow search finds it
// near equal. Usage: make-openings PLIES [DEPTH MAX_CP]
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "notation.h"

enum { LINES_MAX = 100000 };

typedef struct Line {
    Key key;
    int n;
    Move moves[8];
} Line;

static Line *lines;
static int nlines;

static void walk(const Board *b, Line *cur, int plies)
{
    if (cur->n == plies) {
        for (int i = 0; i < nlines; i++)
            if (lines[i].key == b->key)
                return; // the same position by another order of moves
        if (nlines < LINES_MAX) {
            lines[nlines] = *cur;
            lines[nlines++].key = b->key;
        }
        return;
    }
    MoveList list;
    engine_moves_of(b, &list);
    for (int i = 0; i < list.count; i++) {
        Board child = *b;
        board_play(&child, &list.moves[i]);
        cur->moves[cur->n++] = list.moves[i];
        walk(&child, cur, plies);
        cur->n--;
    }
}

int main(int argc, char **argv)
{
    int plies = argc > 1 ? atoi(argv[1]) : 3, depth = argc > 2 ? atoi(argv[2]) : 0;
    int max_cp = argc > 3 ? atoi(argv[3]) : 0;
    if (plies < 1 || plies > 8 || depth < 0 || depth > 30) {
        fprintf(stderr, "usage: make-openings PLIES(1-8) [DEPTH MAX_CP]\n");
        return 2;
    }
    lines = calloc(LINES_MAX, sizeof *lines);
    Engine *e = engine_new();
    if (!lines || !e)
        return 1;
    Board start;
    board_start(&start);
    Line cur = {0};
    walk(&start, &cur, plies);
    printf("# All %d distinct positions after %d plies from the start, as moves.\n", nlines, plies);
    if (depth)
        printf("# Kept when a depth-%d Damka search scores the position within %d centi-men.\n",
               depth, max_cp);
    printf("# Regenerate: make openings (tools/make_openings.c)\n");
    for (int i = 0; i < nlines; i++) {
        char text[256] = "", err[128], mv[MOVE_TEXT_MAX];
        const char *words[8];
        char store[8][MOVE_TEXT_MAX];
        for (int k = 0; k < lines[i].n; k++) {
            notation_move(&lines[i].moves[k], MOVE_FMT_UCI, store[k], sizeof store[k]);
            words[k] = store[k];
            snprintf(mv, sizeof mv, "%s%s", k ? " " : "", store[k]);
            strncat(text, mv, sizeof text - strlen(text) - 1);
        }
        if (depth) {
            engine_new_game(e);
            if (!engine_set_position(e, NULL, words, lines[i].n, MOVE_FMT_UCI, err, sizeof err))
                return 1;
            EngineGo go;
            EngineResult r;
            engine_go_depth(&go, depth);
            engine_go(e, &go, NULL, NULL, NULL);
            engine_wait(e);
            engine_result(e, &r);
            if (abs(r.score) > max_cp)
                continue;
        }
        printf("%s\n", text);
    }
    engine_free(e);
    free(lines);
    return 0;
}
