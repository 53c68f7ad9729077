// SPDX-License-Identifier: MIT
// Owns the text buffer the server writes its JSON, PDN and event frames into.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gui.h"

void buf_init(Buf *b) { memset(b, 0, sizeof *b); }

void buf_free(Buf *b)
{
    free(b->data);
    buf_init(b);
}

static bool reserve(Buf *b, size_t extra)
{
    if (b->failed)
        return false;
    if (b->len + extra + 1 <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 1024;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *d = realloc(b->data, cap);
    if (!d) {
        b->failed = true;
        return false;
    }
    b->data = d;
    b->cap = cap;
    return true;
}

void buf_printf(Buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void buf_append(Buf *b, const char *data, size_t len)
{
    if (!reserve(b, len))
        return;
    memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
}

void buf_json_string(Buf *b, const char *s)
{
    buf_printf(b, "\"");
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\')
            buf_printf(b, "\\%c", *c);
        else if (*c == '\n')
            buf_printf(b, "\\n");
        else if (*c < 0x20 || *c == 0x7f)
            buf_printf(b, "\\u%04x", *c);
        else
            buf_printf(b, "%c", *c);
    }
    buf_printf(b, "\"");
}
