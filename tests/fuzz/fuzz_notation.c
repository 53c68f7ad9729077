// SPDX-License-Identifier: MIT
// libFuzzer harness for the FEN, Hub position and move parsers. The first line is a FEN (or a
// Hub position), the rest are move texts tried on it. Whatever parses must print back to
// something that parses to the same thing; a mismatch aborts (a bug, like a crash).
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "movegen.h"
#include "notation.h"
#include "tables.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_moves(Board *b, char *rest)
{
    static const MoveFormat fmts[] = {MOVE_FMT_ALG, MOVE_FMT_HUB, MOVE_FMT_HUB_A1};
    char *save = NULL;
    for (char *tok = strtok_r(rest, "\n", &save); tok; tok = strtok_r(NULL, "\n", &save)) {
        for (int f = 0; f < 3; f++) {
            Move m, back;
            char err[160], text[MOVE_TEXT_MAX];
            if (!notation_parse_move(b, tok, fmts[f], &m, err, sizeof err))
                continue;
            if (!movegen_is_legal(b, &m))
                abort();
            notation_move(&m, fmts[f] == MOVE_FMT_ALG ? MOVE_FMT_UCI : fmts[f], text, sizeof text);
            if (!notation_parse_move(b, text, fmts[f], &back, err, sizeof err) ||
                back.from != m.from || back.to != m.to || back.captured != m.captured)
                abort();
            board_play(b, &m);
            if (!board_is_ok(b))
                abort();
            break;
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tables_init();
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *nl = strchr(text, '\n'), *rest = "";
    if (nl) {
        *nl = '\0';
        rest = nl + 1;
    }
    Board b;
    char err[160], again[FEN_MAX];
    if (notation_parse_fen(text, &b, err, sizeof err)) {
        Board c;
        notation_fen(&b, again, sizeof again);
        if (!notation_parse_fen(again, &c, err, sizeof err) || !board_equal(&b, &c))
            abort();
        check_moves(&b, rest);
    } else if (notation_parse_hub_pos(text, &b, err, sizeof err)) {
        Board c;
        notation_hub_pos(&b, again, sizeof again);
        if (!notation_parse_hub_pos(again, &c, err, sizeof err) || !board_equal(&b, &c))
            abort();
        check_moves(&b, rest);
    }
    free(text);
    return 0;
}
