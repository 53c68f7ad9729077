// SPDX-License-Identifier: MIT
// Owns the PDN writer: tags and numbered algebraic moves that draughts tools can open.
#include <string.h>

#include "match.h"
#include "notation.h"

static const char *result_text(GameOutcome o)
{
    switch (o) {
    case OUT_WHITE_WINS: return "1-0";
    case OUT_BLACK_WINS: return "0-1";
    case OUT_DRAW: return "1/2-1/2";
    case OUT_NONE: break;
    }
    return "*";
}

// PGN-style Termination value from the reason text.
static const char *termination(const Game *g)
{
    const char *r = g->reason;
    if (g->outcome == OUT_NONE)
        return "unterminated";
    if (strstr(r, "time"))
        return "time forfeit";
    if (strstr(r, "illegal") || strstr(r, "malformed"))
        return "rules infraction";
    if (strstr(r, "crash") || strstr(r, "hang") || strstr(r, "did not start"))
        return "abandoned";
    if (strstr(r, "adjudication"))
        return "adjudication";
    return "normal";
}

// Writes text with line wrapping at 80 columns.
static void put_word(FILE *out, const char *w, int *col)
{
    int n = (int)strlen(w);
    if (*col > 0 && *col + 1 + n > 80) {
        fputc('\n', out);
        *col = 0;
    } else if (*col > 0) {
        fputc(' ', out);
        (*col)++;
    }
    fputs(w, out);
    *col += n;
}

void pdn_write(FILE *out, const PdnTags *t, const Game *g)
{
    char fen[FEN_MAX], start_fen[FEN_MAX];
    Board std;
    board_start(&std);
    fprintf(out, "[Event \"%s\"]\n[Site \"%s\"]\n[Date \"%s\"]\n[Round \"%d\"]\n", t->event,
            t->site, t->date, t->round);
    fprintf(out, "[White \"%s\"]\n[Black \"%s\"]\n[Result \"%s\"]\n[GameType \"25\"]\n", t->white,
            t->black, result_text(g->outcome));
    if (!board_equal(&g->start, &std)) {
        notation_fen_algebraic(&g->start, start_fen, sizeof start_fen);
        fprintf(out, "[FEN \"%s\"]\n", start_fen);
    }
    fprintf(out, "[TimeControl \"%s\"]\n[PlyCount \"%d\"]\n[Termination \"%s\"]\n\n",
            t->time_control, g->nplies, termination(g));
    int col = 0, number = 1;
    Side side = g->start.side;
    for (int i = 0; i < g->nplies; i++) {
        char word[96], mv[MOVE_TEXT_MAX];
        notation_move(&g->moves[i], MOVE_FMT_ALG, mv, sizeof mv);
        for (char *c = mv; *c; c++)
            if (*c == ':')
                *c = 'x';
        if (side == SIDE_WHITE)
            snprintf(word, sizeof word, "%d. %s", number, mv);
        else if (i == 0)
            snprintf(word, sizeof word, "%d... %s", number, mv);
        else
            snprintf(word, sizeof word, "%s", mv);
        put_word(out, word, &col);
        if (side == SIDE_BLACK)
            number++;
        side = side_flip(side);
    }
    if (g->reason[0]) {
        snprintf(fen, sizeof fen, "{%s}", g->reason);
        put_word(out, fen, &col);
    }
    put_word(out, result_text(g->outcome), &col);
    fputs("\n\n", out);
}
