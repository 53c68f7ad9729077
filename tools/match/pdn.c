// SPDX-License-Identifier: MIT
// Owns PDN: the writer (tags and numbered algebraic moves that draughts tools can open) and the
// reader of games from any tool.
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "notation.h"

static const char *result_text(GameOutcome o)
{
    switch (o) {
    case OUT_WHITE_WINS:
        return "1-0";
    case OUT_BLACK_WINS:
        return "0-1";
    case OUT_DRAW:
        return "1/2-1/2";
    case OUT_NONE:
        break;
    }
    return "*";
}

// PGN-style Termination value from the reason text.
// A tag's value, or "?" when it is not known.
static const char *unknown(const char *v) { return v && *v ? v : "?"; }

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

// Writes {text} (braces in it dropped), wrapped as words are.
static void put_comment(FILE *out, const char *text, int *col)
{
    char word[MOVE_TEXT_MAX * 4];
    size_t n = 0;
    word[n++] = '{';
    for (const char *c = text;; c++) {
        bool end = !*c;
        if (end || *c == ' ') {
            if (end)
                word[n++] = '}';
            word[n] = '\0';
            if (n > 0 && strcmp(word, "{") != 0)
                put_word(out, word, col);
            n = 0;
            if (end)
                return;
        } else if (*c != '{' && *c != '}' && n + 2 < sizeof word) {
            word[n++] = *c;
        }
    }
}

// Writes move m of move number `number`: White's numbered "N.", Black's "N..." when renumber
// is set, else bare; "(" before it when it opens a side line, ")" after when it closes one.
static void put_move(FILE *out, const Move *m, int number, Side side, bool renumber, bool open,
                     bool close, int *col)
{
    char num[24] = "", mv[MOVE_TEXT_MAX], word[MOVE_TEXT_MAX + 32];
    notation_move(m, MOVE_FMT_ALG, mv, sizeof mv); // captures c3:e5, as Russian PDN and the
                                                   // page write them
    if (side == SIDE_WHITE)
        snprintf(num, sizeof num, "%d. ", number);
    else if (renumber)
        snprintf(num, sizeof num, "%d... ", number);
    snprintf(word, sizeof word, "%s%s%s%s", open ? "(" : "", num, mv, close ? ")" : "");
    put_word(out, word, col);
}

void pdn_write(FILE *out, const PdnTags *t, const Game *g)
{
    char fen[FEN_MAX], start_fen[FEN_MAX];
    Board std;
    board_start(&std);
    const char *result = t->result ? pdn_result_standard(t->result) : result_text(g->outcome);
    char round[16];
    if (t->round_text)
        snprintf(round, sizeof round, "%s", t->round_text);
    else
        snprintf(round, sizeof round, "%d", t->round);
    fprintf(out, "[Event \"%s\"]\n[Site \"%s\"]\n[Date \"%s\"]\n[Round \"%s\"]\n",
            unknown(t->event), unknown(t->site), unknown(t->date), unknown(round));
    fprintf(out, "[White \"%s\"]\n[Black \"%s\"]\n[Result \"%s\"]\n[GameType \"25\"]\n",
            unknown(t->white), unknown(t->black), result);
    if (!board_equal(&g->start, &std)) {
        notation_fen_algebraic(&g->start, start_fen, sizeof start_fen);
        fprintf(out, "[FEN \"%s\"]\n", start_fen);
    }
    fprintf(out, "[TimeControl \"%s\"]\n[PlyCount \"%d\"]\n[Termination \"%s\"]\n\n",
            t->time_control, g->nplies,
            g->outcome == OUT_NONE && strcmp(result, "*") != 0 ? "normal" : termination(g));
    int col = 0, number = 1;
    Side side = g->start.side;
    const char *note = t->notes ? pdn_note(t->notes, 0) : NULL;
    if (note)
        put_comment(out, note, &col);
    bool renumber = true; // the next move is numbered even if it is Black's
    for (int i = 0; i < g->nplies; i++) {
        put_move(out, &g->moves[i], number, side, renumber, false, false, &col);
        renumber = false;
        if ((note = t->notes ? pdn_note(t->notes, i + 1) : NULL) != NULL) {
            put_comment(out, note, &col);
            renumber = true;
        }
        for (int k = 0; k < t->nlines; k++) {
            const PdnLine *l = &t->lines[k];
            if (l->ply != i || l->n <= 0)
                continue;
            Side s = side;
            int num = number;
            for (int j = 0; j < l->n; j++) {
                put_move(out, &l->moves[j], num, s, j == 0, j == 0, j == l->n - 1, &col);
                if (s == SIDE_BLACK)
                    num++;
                s = side_flip(s);
            }
            renumber = true;
        }
        if (side == SIDE_BLACK)
            number++;
        side = side_flip(side);
    }
    if (g->reason[0]) {
        snprintf(fen, sizeof fen, "{%s}", g->reason);
        put_word(out, fen, &col);
    }
    put_word(out, result, &col);
    fputs("\n\n", out);
}

const char *pdn_result_standard(const char *r)
{
    return strcmp(r, "1-0") == 0 || strcmp(r, "2-0") == 0       ? "1-0"
           : strcmp(r, "0-1") == 0 || strcmp(r, "0-2") == 0     ? "0-1"
           : strcmp(r, "1/2-1/2") == 0 || strcmp(r, "1-1") == 0 ? "1/2-1/2"
                                                                : "*";
}

const char *pdn_note(const PdnNotes *notes, int ply)
{
    if (ply < 0 || ply > MATCH_GAME_PLIES_MAX || !notes->at[ply])
        return NULL;
    return notes->text + notes->at[ply] - 1;
}

// Adds a comment after ply (joined to one already there); a comment that does not fit is cut.
static void add_note(PdnNotes *notes, int ply, const char *text, size_t len)
{
    size_t used = 0;
    for (int i = 0; i <= MATCH_GAME_PLIES_MAX; i++)
        if (notes->at[i]) {
            size_t end = notes->at[i] - 1 + strlen(notes->text + notes->at[i] - 1) + 1;
            used = end > used ? end : used;
        }
    while (len && isspace((unsigned char)*text))
        text++, len--;
    while (len && isspace((unsigned char)text[len - 1]))
        len--;
    const char *old = pdn_note(notes, ply);
    size_t oldlen = old ? strlen(old) + 1 : 0;
    if (!len || used + oldlen + len + 1 > PDN_NOTES_MAX)
        return;
    char *dst = notes->text + used;
    if (old) {
        memcpy(dst, old, oldlen - 1);
        dst[oldlen - 1] = ' ';
    }
    memcpy(dst + oldlen, text, len);
    dst[oldlen + len] = '\0';
    for (size_t k = 0; k < oldlen + len; k++)
        if (dst[k] == '\n' || dst[k] == '\r' || dst[k] == '\t')
            dst[k] = ' ';
    notes->at[ply] = (uint16_t)(used + 1);
}

// ---- Reading -----------------------------------------------------------------------------------

// Copies a tag value into dst (cut to its size).
static void set_tag(char *dst, size_t len, const char *value)
{
    size_t n = strnlen(value, len - 1); // not snprintf: the cut is meant, gcc would warn of it
    memcpy(dst, value, n);
    dst[n] = '\0';
}

// Reads `[Name "value"]` at text[*pos] (which is '['). False if malformed.
static bool read_tag(const char *text, size_t *pos, char *name, size_t nlen, char *value,
                     size_t vlen)
{
    size_t i = *pos + 1, n = 0, v = 0;
    while (text[i] == ' ')
        i++;
    while (text[i] && (isalnum((unsigned char)text[i]) || text[i] == '_') && n + 1 < nlen)
        name[n++] = text[i++];
    name[n] = '\0';
    while (text[i] == ' ')
        i++;
    if (!n || text[i] != '"')
        return false;
    for (i++; text[i] && text[i] != '"' && text[i] != '\n'; i++) {
        if (text[i] == '\\' && text[i + 1])
            i++;
        if (v + 1 < vlen)
            value[v++] = text[i];
    }
    value[v] = '\0';
    if (text[i] != '"')
        return false;
    for (i++; text[i] == ' '; i++)
        ;
    if (text[i] != ']')
        return false;
    *pos = i + 1;
    return true;
}

static bool is_result(const char *w)
{
    static const char *const results[] = {"1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"};
    for (size_t i = 0; i < sizeof results / sizeof results[0]; i++)
        if (strcmp(w, results[i]) == 0)
            return true;
    return false;
}

// Skips a comment or variation starting at text[*pos]; false when it does not end.
static bool skip_aside(const char *text, size_t *pos)
{
    char open = text[*pos], close = open == '{' ? '}' : ')';
    int depth = 0;
    for (size_t i = *pos; text[i]; i++) {
        if (text[i] == open)
            depth++;
        else if (text[i] == close && --depth == 0) {
            *pos = i + 1;
            return true;
        }
    }
    return false;
}

// Moves *pos to the start of the next game: the next line that starts with '['.
static void skip_game(const char *text, size_t *pos)
{
    size_t i = *pos;
    while (text[i] && !(text[i] == '[' && (i == 0 || text[i - 1] == '\n')))
        i++;
    *pos = i > *pos ? i : *pos + (text[i] != '\0');
}

static int fail_game(const char *text, size_t *pos, char *err, size_t errlen, const char *why,
                     const char *what)
{
    snprintf(err, errlen, "%s%s%.40s", why, what ? ": " : "", what ? what : "");
    skip_game(text, pos);
    return -1;
}

// Reads the tags of a game into g. Returns 0, or -1 after fail_game.
static int read_tags(const char *text, size_t *pos, PdnGame *g, char *err, size_t errlen)
{
    char name[32], value[256];
    for (;;) {
        while (isspace((unsigned char)text[*pos]))
            (*pos)++;
        if (text[*pos] != '[')
            return 0;
        if (!read_tag(text, pos, name, sizeof name, value, sizeof value))
            return fail_game(text, pos, err, errlen, "malformed tag", NULL);
        if (strcmp(name, "Event") == 0)
            set_tag(g->event, sizeof g->event, value);
        else if (strcmp(name, "White") == 0)
            set_tag(g->white, sizeof g->white, value);
        else if (strcmp(name, "Black") == 0)
            set_tag(g->black, sizeof g->black, value);
        else if (strcmp(name, "Date") == 0)
            set_tag(g->date, sizeof g->date, value);
        else if (strcmp(name, "Site") == 0)
            set_tag(g->site, sizeof g->site, value);
        else if (strcmp(name, "Round") == 0)
            set_tag(g->round, sizeof g->round, value);
        else if (strcmp(name, "Result") == 0)
            set_tag(g->result, sizeof g->result, value);
        else if (strcmp(name, "GameType") == 0 && atoi(value) != 25)
            return fail_game(text, pos, err, errlen, "not Russian draughts (GameType 25)", value);
        else if (strcmp(name, "FEN") == 0) {
            char why[128];
            if (!notation_parse_fen(value, &g->start, why, sizeof why))
                return fail_game(text, pos, err, errlen, "bad FEN tag", why);
        }
    }
}

int pdn_read(const char *text, size_t *pos, PdnGame *g, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    board_start(&g->start);
    while (isspace((unsigned char)text[*pos]))
        (*pos)++;
    if (!text[*pos])
        return 0;
    if (read_tags(text, pos, g, err, errlen) < 0)
        return -1;
    Board b = g->start;
    for (;;) {
        while (isspace((unsigned char)text[*pos]))
            (*pos)++;
        char c = text[*pos];
        if (!c || c == '[')
            return 1; // a game without a result token ends where the next one starts
        if (c == '{' || c == '(') {
            size_t from = *pos;
            if (!skip_aside(text, pos))
                return fail_game(text, pos, err, errlen, "unterminated comment or variation", NULL);
            if (c == '{') // a comment of the main line (variations are skipped whole)
                add_note(&g->notes, g->nmoves, text + from + 1, *pos - from - 2);
            continue;
        }
        char word[MOVE_TEXT_MAX];
        size_t n = 0;
        while (text[*pos] && !isspace((unsigned char)text[*pos]) && text[*pos] != '{' &&
               text[*pos] != '(' && n + 1 < sizeof word)
            word[n++] = text[(*pos)++];
        word[n] = '\0';
        if (c == ';') { // a comment to the end of the line
            while (text[*pos] && text[*pos] != '\n')
                (*pos)++;
            continue;
        }
        if (is_result(word)) {
            if (!g->result[0])
                set_tag(g->result, sizeof g->result, word);
            return 1;
        }
        char *m = word;
        while (isdigit((unsigned char)*m))
            m++;
        if (*m == '.') { // a move number, maybe joined to its move: "12." "12..." "12.c3-d4"
            while (*m == '.')
                m++;
        } else {
            m = word;
        }
        for (size_t k = strlen(m); k > 0 && strchr("!?+#", m[k - 1]); k--)
            m[k - 1] = '\0';
        if (!*m || word[0] == '$')
            continue;
        char why[128];
        if (g->nmoves >= MATCH_GAME_PLIES_MAX)
            return fail_game(text, pos, err, errlen, "game too long", NULL);
        if (!notation_parse_move(&b, m, MOVE_FMT_ALG, &g->moves[g->nmoves], why, sizeof why)) {
            char what[MOVE_TEXT_MAX + sizeof why + 4];
            snprintf(what, sizeof what, "%s (%s)", m, why);
            return fail_game(text, pos, err, errlen, "bad move", what);
        }
        board_play(&b, &g->moves[g->nmoves++]);
    }
}

char *pdn_read_text_file(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 20, len = 0;
    char *text = malloc(cap + 1);
    for (size_t n; text && (n = fread(text + len, 1, cap - len, f)) > 0;) {
        len += n;
        if (len == cap) {
            char *t = realloc(text, 2 * cap + 1);
            if (!t) {
                free(text);
                text = NULL;
                break;
            }
            text = t, cap *= 2;
        }
    }
    fclose(f);
    if (!text)
        snprintf(err, errlen, "out of memory reading %s", path);
    else
        text[len] = '\0';
    return text;
}
