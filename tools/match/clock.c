// SPDX-License-Identifier: MIT
// Owns time controls and the runner's clocks.
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"

// Parses seconds ("10", "0.1", "1:30") into milliseconds.
static bool parse_seconds(const char *s, const char *end, int64_t *ms)
{
    char buf[32];
    size_t n = (size_t)(end - s);
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, s, n);
    buf[n] = '\0';
    double minutes = 0;
    char *colon = strchr(buf, ':'), *stop = NULL;
    const char *sec = buf;
    if (colon) {
        *colon = '\0';
        minutes = strtod(buf, &stop);
        if (*stop || minutes < 0)
            return false;
        sec = colon + 1;
    }
    errno = 0;
    double v = strtod(sec, &stop);
    if (errno || *stop || stop == sec || v < 0 || v > 1e7)
        return false;
    *ms = (int64_t)((minutes * 60.0 + v) * 1000.0 + 0.5);
    return true;
}

bool tc_parse_clock(const char *text, TimeControl *tc)
{
    const char *slash = strchr(text, '/'), *plus = strchr(text, '+');
    const char *base = text;
    int moves = 0;
    if (slash) {
        char *stop = NULL;
        long m = strtol(text, &stop, 10);
        if (stop != slash || m < 0 || m > 1000)
            return false;
        moves = (int)m;
        base = slash + 1;
    }
    int64_t base_ms, inc_ms = 0;
    const char *base_end = plus ? plus : base + strlen(base);
    if (!parse_seconds(base, base_end, &base_ms) || base_ms <= 0)
        return false;
    if (plus && !parse_seconds(plus + 1, plus + 1 + strlen(plus + 1), &inc_ms))
        return false;
    tc->kind = TC_CLOCK;
    tc->moves = moves;
    tc->base_ms = base_ms;
    tc->inc_ms = inc_ms;
    return true;
}

void clock_start(Clock *c, const TimeControl *tc)
{
    c->left_ms = tc->kind == TC_CLOCK ? tc->base_ms : 0;
    c->moves_in_period = 0;
}

int clock_movestogo(const Clock *c, const TimeControl *tc)
{
    return tc->moves > 0 ? tc->moves - c->moves_in_period : 0;
}

bool clock_charge(Clock *c, const TimeControl *tc, int64_t used_ms)
{
    if (tc->kind == TC_MOVETIME)
        return used_ms <= tc->movetime_ms + tc->margin_ms;
    if (tc->kind != TC_CLOCK)
        return true;
    c->left_ms -= used_ms;
    if (c->left_ms < -tc->margin_ms)
        return false;
    c->left_ms += tc->inc_ms;
    if (tc->moves > 0 && ++c->moves_in_period == tc->moves) {
        c->moves_in_period = 0;
        c->left_ms += tc->base_ms;
    }
    return true;
}

static void format_seconds(int64_t ms, char *buf, size_t len)
{
    if (ms % 1000 == 0)
        snprintf(buf, len, "%lld", (long long)(ms / 1000));
    else
        snprintf(buf, len, "%g", (double)ms / 1000.0);
}

void tc_format(const TimeControl *tc, char *buf, size_t len)
{
    char a[32], b[32];
    switch (tc->kind) {
    case TC_CLOCK:
        format_seconds(tc->base_ms, a, sizeof a);
        format_seconds(tc->inc_ms, b, sizeof b);
        if (tc->moves > 0)
            snprintf(buf, len, "%d/%s+%s", tc->moves, a, b);
        else
            snprintf(buf, len, "%s+%s", a, b);
        break;
    case TC_MOVETIME:
        format_seconds(tc->movetime_ms, a, sizeof a);
        snprintf(buf, len, "st=%s", a);
        break;
    case TC_DEPTH:
        snprintf(buf, len, "depth=%d", tc->depth);
        break;
    case TC_NODES:
        snprintf(buf, len, "nodes=%lld", (long long)tc->nodes);
        break;
    case TC_NONE:
        snprintf(buf, len, "-");
        break;
    }
}
