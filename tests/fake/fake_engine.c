// SPDX-License-Identifier: MIT
// A small UCI-style engine that misbehaves on purpose, for the match runner's tests.
// Usage: fake_engine MODE, MODE one of: good (first legal move), illegal (a move that is not
// legal), crash (exits on its second go), hang (never answers go), late (answers after 1.5 s),
// garbage (prints junk instead of a move).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "board.h"
#include "movegen.h"
#include "notation.h"
#include "tables.h"

static void reply(const char *fmt, const char *arg)
{
    printf(fmt, arg);
    fflush(stdout);
}

// Sets b from "position fen <FEN> [moves ...]" or "position startpos [moves ...]".
static void set_position(char *line, Board *b)
{
    char *save = NULL, *tok = strtok_r(line, " \n", &save);
    tok = strtok_r(NULL, " \n", &save);
    board_start(b);
    if (tok && strcmp(tok, "fen") == 0) {
        tok = strtok_r(NULL, " \n", &save);
        char err[128];
        if (!tok || !notation_parse_fen(tok, b, err, sizeof err))
            board_start(b);
    }
    while ((tok = strtok_r(NULL, " \n", &save)) != NULL) {
        Move m;
        char err[128];
        if (strcmp(tok, "moves") != 0 &&
            notation_parse_move(b, tok, MOVE_FMT_ALG, &m, err, sizeof err))
            board_play(b, &m);
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "good";
    char line[65536];
    Board b;
    int gos = 0;
    tables_init();
    board_start(&b);
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "uci", 3) == 0 && (line[3] == '\n' || line[3] == '\0'))
            reply("id name fake-%s\nuciok\n", mode);
        else if (strncmp(line, "isready", 7) == 0)
            reply("%s", "readyok\n");
        else if (strncmp(line, "position", 8) == 0)
            set_position(line, &b);
        else if (strncmp(line, "quit", 4) == 0)
            return 0;
        else if (strncmp(line, "go", 2) == 0) {
            gos++;
            MoveList list;
            char text[MOVE_TEXT_MAX] = "a1h8";
            if (movegen_all(&b, &list) > 0)
                notation_move(&list.moves[0], MOVE_FMT_UCI, text, sizeof text);
            if (strcmp(mode, "illegal") == 0)
                reply("bestmove %s\n", "h8a1");
            else if (strcmp(mode, "crash") == 0 && gos >= 2)
                return 3;
            else if (strcmp(mode, "hang") == 0)
                continue;
            else if (strcmp(mode, "late") == 0) {
                struct timespec ts = {1, 500000000};
                nanosleep(&ts, NULL);
                reply("bestmove %s\n", text);
            } else if (strcmp(mode, "garbage") == 0)
                reply("%s", "\x01\x02 nonsense here\nbestmove\n");
            else
                reply("info depth 1 score cp 0 pv %s\n", text), reply("bestmove %s\n", text);
        }
    }
    return 0;
}
