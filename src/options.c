// SPDX-License-Identifier: MIT
// Owns the options table: every option of both dialects, one row each, and their parsing.
#include "options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

// A new option is one row. Scan's Hub names that lidraughts-bot sends by default are rows too:
// tt-size with Scan's meaning (log2 of the entries), bb-size as the largest number of pieces
// probed in the endgame databases, book, book-ply and book-margin for the opening book (Scan's
// meanings: use it, up to this ply of the game, within this margin), and initial-time accepted
// and ignored.
#define IGNORED(hub)                                                                               \
    {                                                                                              \
        .name = {NULL, hub}, .type = OPTION_IGNORED, .apply = engine_ignore_option,                \
        .get = engine_no_value                                                                     \
    }
static const Option OPTIONS[] = {
    {.name = {"Hash", "hash"},
     .type = OPTION_SPIN,
     .min = ENGINE_HASH_MIN,
     .max = ENGINE_HASH_MAX,
     .def = ENGINE_HASH_DEFAULT,
     .apply = engine_set_hash,
     .get = engine_hash,
     .failure = "cannot allocate %lld MB of hash"},
    {.name = {"Threads", "threads"},
     .type = OPTION_SPIN,
     .min = 1,
     .max = ENGINE_THREADS_MAX,
     .def = 1,
     .apply = engine_set_threads,
     .get = engine_threads,
     .failure = "cannot start %lld threads"},
    {.name = {"MultiPV", NULL},
     .type = OPTION_SPIN,
     .min = 1,
     .max = ENGINE_MULTIPV_MAX,
     .def = 1,
     .apply = engine_set_multipv,
     .get = engine_multipv},
    // Ponder only tells the engine that the GUI may ponder (GUIs need the option to offer it);
    // pondering itself is `go ponder`, so the value changes nothing.
    {.name = {"Ponder", "ponder"},
     .type = OPTION_CHECK,
     .max = 1,
     .apply = engine_ignore_option,
     .get = engine_no_value},
    {.name = {"Move Overhead", NULL},
     .type = OPTION_SPIN,
     .max = ENGINE_OVERHEAD_MAX,
     .def = ENGINE_OVERHEAD_DEFAULT,
     .apply = engine_set_move_overhead,
     .get = engine_move_overhead},
    {.name = {"Clear Hash", NULL},
     .type = OPTION_BUTTON,
     .apply = engine_clear_hash,
     .get = engine_no_value},
    {.name = {"UCI_Variant", "variant"},
     .type = OPTION_COMBO,
     .choices = {"russian"},
     .apply = engine_ignore_option,
     .get = engine_no_value},
    {.name = {"UCI_AnalyseMode", NULL},
     .type = OPTION_CHECK,
     .max = 1,
     .apply = engine_set_analyse_mode,
     .get = engine_analyse_mode},
    {.name = {"MoveFormat", NULL},
     .type = OPTION_COMBO,
     .max = 2,
     .choices = {"uci", "algebraic", "numeric"},
     .apply = engine_set_move_style,
     .get = engine_move_style},
    {.name = {"EGDBPath", "egdb-path"},
     .type = OPTION_STRING,
     .apply_text = engine_set_egdb_path,
     .get_text = engine_egdb_path},
    {.name = {"EvalFile", "eval-file"},
     .type = OPTION_STRING,
     .apply_text = engine_set_eval_file,
     .get_text = engine_eval_file},
    {.name = {NULL, "square-numbering"},
     .type = OPTION_COMBO,
     .max = 1,
     .choices = {"b8", "a1"},
     .apply = engine_set_hub_numbering,
     .get = engine_hub_numbering},
    {.name = {NULL, "tt-size"},
     .type = OPTION_SPIN,
     .min = 16,
     .max = 32,
     .def = 22,
     .apply = engine_set_hash_log2,
     .get = engine_hash_log2,
     .failure = "cannot allocate 2^%lld entries",
     .unlisted = true},
    {.name = {NULL, "bb-size"},
     .type = OPTION_SPIN,
     .min = 0,
     .max = EGDB_PIECES_MAX,
     .def = EGDB_PIECES_MAX,
     .apply = engine_set_egdb_pieces,
     .get = engine_egdb_pieces},
    {.name = {"OwnBook", "book"},
     .type = OPTION_CHECK,
     .max = 1,
     .def = 1,
     .apply = engine_set_own_book,
     .get = engine_own_book},
    {.name = {"BookFile", "book-file"},
     .type = OPTION_STRING,
     .apply_text = engine_set_book_file,
     .get_text = engine_book_file},
    {.name = {"BookMargin", "book-margin"},
     .type = OPTION_SPIN,
     .max = ENGINE_BOOK_MARGIN_MAX,
     .def = ENGINE_BOOK_MARGIN_DEFAULT,
     .apply = engine_set_book_margin,
     .get = engine_book_margin},
    {.name = {"BookVariety", NULL},
     .type = OPTION_SPIN,
     .max = 100,
     .def = ENGINE_BOOK_VARIETY_DEFAULT,
     .apply = engine_set_book_variety,
     .get = engine_book_variety},
    {.name = {NULL, "book-ply"},
     .type = OPTION_SPIN,
     .max = ENGINE_BOOK_PLY_MAX,
     .apply = engine_set_book_ply,
     .get = engine_book_ply},
    {.name = {"Skill Level", NULL},
     .type = OPTION_SPIN,
     .max = SKILL_FULL,
     .def = SKILL_FULL,
     .apply = engine_set_skill,
     .get = engine_skill},
    {.name = {"UCI_LimitStrength", NULL},
     .type = OPTION_CHECK,
     .max = 1,
     .apply = engine_set_limit_strength,
     .get = engine_limit_strength},
    {.name = {"UCI_Elo", NULL},
     .type = OPTION_SPIN,
     .min = ENGINE_ELO_MIN,
     .max = ENGINE_ELO_MAX,
     .def = ENGINE_ELO_MAX,
     .apply = engine_set_elo,
     .get = engine_elo},
    IGNORED("initial-time"),
};
#undef IGNORED

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
        snprintf(
            buf, len, "%s",
            o->choices[value >= 0 && value < OPTION_CHOICES_MAX && o->choices[value] ? value : 0]);
    else
        snprintf(buf, len, "%lld", (long long)value);
}

void options_current_text(const Engine *e, const Option *o, char *buf, size_t len)
{
    if (o->type == OPTION_STRING)
        o->get_text(e, buf, len);
    else
        options_value_text(o, o->get(e), buf, len);
}

// Reads text as a value of o; false with the reason in err.
static bool parse_value(const Option *o, const char *name, const char *text, int64_t *out,
                        char *err, size_t errlen)
{
    if (o->type == OPTION_BUTTON || o->type == OPTION_IGNORED || o->type == OPTION_STRING) {
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
    if (o->type == OPTION_STRING) {
        // The facade's reason (or warning) names no option: say which, in this dialect.
        char why[ENGINE_ERR_MAX] = "";
        bool ok = o->apply_text(e, text ? text : "", why, sizeof why);
        if (why[0])
            snprintf(err, errlen, "%s: %s", name, why);
        return ok;
    }
    if (!parse_value(o, name, text, &v, err, errlen))
        return false;
    err[0] = '\0'; // (parse_value may have begun a reason)
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
