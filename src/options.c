// SPDX-License-Identifier: MIT
// Owns the options table: every option of both dialects, one row each, and their parsing.
#include "options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tt.h"

// A new option is one row. Scan's Hub names that lidraughts-bot sends by default are rows too:
// tt-size with Scan's meaning (log2 of the entries), the rest accepted and ignored until the
// feature exists (bb-size: endgame databases; book, book-ply, book-margin: an opening book).
static const Option OPTIONS[] = {
    {{"Hash", "hash"}, OPTION_SPIN, TT_MB_MIN, TT_MB_MAX, ENGINE_HASH_DEFAULT, {NULL},
     engine_set_hash, engine_hash, "cannot allocate %lld MB of hash", false},
    {{"Threads", "threads"}, OPTION_SPIN, 1, ENGINE_THREADS_MAX, 1, {NULL}, engine_set_threads,
     engine_threads, "cannot start %lld threads", false},
    {{"MultiPV", NULL}, OPTION_SPIN, 1, ENGINE_MULTIPV_MAX, 1, {NULL}, engine_set_multipv,
     engine_multipv, NULL, false},
    {{"Ponder", "ponder"}, OPTION_CHECK, 0, 1, 0, {NULL}, engine_set_ponder, engine_ponder, NULL, false},
    {{"Move Overhead", NULL}, OPTION_SPIN, 0, ENGINE_OVERHEAD_MAX, ENGINE_OVERHEAD_DEFAULT, {NULL},
     engine_set_move_overhead, engine_move_overhead, NULL, false},
    {{"Clear Hash", NULL}, OPTION_BUTTON, 0, 0, 0, {NULL}, engine_clear_hash, engine_no_value,
     NULL, false},
    {{"UCI_Variant", "variant"}, OPTION_COMBO, 0, 0, 0, {"russian", NULL}, engine_ignore_option,
     engine_no_value, NULL, false},
    {{"UCI_AnalyseMode", NULL}, OPTION_CHECK, 0, 1, 0, {NULL}, engine_set_analyse_mode,
     engine_analyse_mode, NULL, false},
    {{"MoveFormat", NULL}, OPTION_COMBO, 0, 2, 0, {"uci", "algebraic", "numeric", NULL},
     engine_set_move_style, engine_move_style, NULL, false},
    {{NULL, "square-numbering"}, OPTION_COMBO, 0, 1, 0, {"b8", "a1", NULL},
     engine_set_hub_numbering, engine_hub_numbering, NULL, false},
    {{NULL, "tt-size"}, OPTION_SPIN, 16, 32, 22, {NULL}, engine_set_hash_log2, engine_hash_log2,
     "cannot allocate 2^%lld entries", true},
    {{NULL, "bb-size"}, OPTION_IGNORED, 0, 0, 0, {NULL}, engine_ignore_option, engine_no_value,
     NULL, false},
    {{NULL, "book"}, OPTION_IGNORED, 0, 0, 0, {NULL}, engine_ignore_option, engine_no_value, NULL, false},
    {{NULL, "book-ply"}, OPTION_IGNORED, 0, 0, 0, {NULL}, engine_ignore_option, engine_no_value,
     NULL, false},
    {{NULL, "book-margin"}, OPTION_IGNORED, 0, 0, 0, {NULL}, engine_ignore_option, engine_no_value,
     NULL, false},
    {{NULL, "initial-time"}, OPTION_IGNORED, 0, 0, 0, {NULL}, engine_ignore_option,
     engine_no_value, NULL, false},
};

int options_count(void) { return (int)(sizeof OPTIONS / sizeof OPTIONS[0]); }

const Option *options_at(int i) { return i >= 0 && i < options_count() ? &OPTIONS[i] : NULL; }

const Option *options_find(OptionDialect d, const char *name)
{
    for (int i = 0; i < options_count(); i++) {
        const char *n = OPTIONS[i].name[d];
        if (n && (d == OPTION_UCI ? strcasecmp(n, name) : strcmp(n, name)) == 0)
            return &OPTIONS[i];
    }
    return NULL;
}

void options_value_text(const Option *o, int64_t value, char *buf, size_t len)
{
    if (o->type == OPTION_CHECK)
        snprintf(buf, len, "%s", value ? "true" : "false");
    else if (o->type == OPTION_COMBO)
        snprintf(buf, len, "%s", o->choices[value >= 0 && value < OPTION_CHOICES_MAX && o->choices[value] ? value : 0]);
    else
        snprintf(buf, len, "%lld", (long long)value);
}

// Reads text as a value of o; false with the reason in err.
static bool parse_value(const Option *o, const char *name, const char *text, int64_t *out,
                        char *err, size_t errlen)
{
    if (o->type == OPTION_BUTTON || o->type == OPTION_IGNORED) {
        *out = 0;
        return true;
    }
    if (o->type == OPTION_CHECK) {
        if (text && (strcmp(text, "true") == 0 || strcmp(text, "false") == 0)) {
            *out = text[0] == 't';
            return true;
        }
        snprintf(err, errlen, "%s must be true or false", name);
        return false;
    }
    if (o->type == OPTION_COMBO) {
        size_t used = (size_t)snprintf(err, errlen, "%s must be one of:", name);
        for (int i = 0; i < OPTION_CHOICES_MAX && o->choices[i]; i++) {
            if (text && strcasecmp(text, o->choices[i]) == 0) {
                *out = i;
                return true;
            }
            if (used < errlen)
                used += (size_t)snprintf(err + used, errlen - used, " %s", o->choices[i]);
        }
        return false;
    }
    char *end = NULL;
    errno = 0;
    long long v = text && *text ? strtoll(text, &end, 10) : 0;
    if (!text || !*text || errno || *end || v < o->min || v > o->max) {
        snprintf(err, errlen, "%s must be %lld..%lld", name, (long long)o->min, (long long)o->max);
        return false;
    }
    *out = v;
    return true;
}

bool options_set(Engine *e, const Option *o, OptionDialect d, const char *text, char *err,
                 size_t errlen)
{
    const char *name = o->name[d] ? o->name[d] : "option";
    int64_t v;
    if (!parse_value(o, name, text, &v, err, errlen))
        return false;
    if (o->apply(e, v))
        return true;
    char want[OPTION_TEXT_MAX], kept[OPTION_TEXT_MAX];
    options_value_text(o, o->get(e), kept, sizeof kept);
    if (o->failure)
        snprintf(want, sizeof want, o->failure, (long long)v);
    else
        snprintf(want, sizeof want, "cannot set %s to %lld", name, (long long)v);
    snprintf(err, errlen, "%s; keeping %s", want, kept);
    return false;
}
