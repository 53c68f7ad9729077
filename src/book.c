// SPDX-License-Identifier: MIT
// Owns the opening book's file and its probing (book.h).
#include "book.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "tables.h"
#include "util.h"

static const char MAGIC[8] = {'D', 'A', 'M', 'K', 'A', 'B', 'O', 'K'};
enum { BOOK_ENTRIES_MAX = 1 << 26 }; // 2 GB: more is no book

struct Book {
    size_t n;
    BookEntry *entries; // sorted by key
};

static bool fail(char *err, size_t errlen, const char *fmt, const char *path)
{
    snprintf(err, errlen, fmt, path);
    return false;
}

static uint32_t square_mask(Bitboard bb)
{
    uint32_t m = 0;
    for (Square s = 0; s < SQUARE_COUNT; s++)
        if (bb & g_square_bb[s])
            m |= 1u << s;
    return m;
}

void book_entry_of(const Board *b, const Move *m, BookEntry *out)
{
    memset(out, 0, sizeof *out);
    out->key = b->key;
    out->from = m->from;
    out->to = m->to;
    out->flags = m->flags;
    out->captured = square_mask(m->captured);
}

bool book_entry_is(const BookEntry *e, const Move *m)
{
    return e->from == m->from && e->to == m->to && e->flags == m->flags &&
           e->captured == square_mask(m->captured);
}

static void put_entry(uint8_t *p, const BookEntry *e)
{
    util_put_le(p, e->key, 8);
    p[8] = e->from, p[9] = e->to, p[10] = e->flags, p[11] = 0;
    util_put_le(p + 12, e->captured, 4);
    util_put_le(p + 16, e->weight, 2);
    util_put_le(p + 18, (uint16_t)e->score, 2);
    util_put_le(p + 20, e->wins, 4);
    util_put_le(p + 24, e->draws, 4);
    util_put_le(p + 28, e->losses, 4);
}

static bool get_entry(const uint8_t *p, BookEntry *e)
{
    e->key = util_get_le(p, 8);
    e->from = p[8], e->to = p[9], e->flags = p[10];
    e->captured = (uint32_t)util_get_le(p + 12, 4);
    e->weight = (uint16_t)util_get_le(p + 16, 2);
    e->score = (int16_t)(uint16_t)util_get_le(p + 18, 2);
    e->wins = (uint32_t)util_get_le(p + 20, 4);
    e->draws = (uint32_t)util_get_le(p + 24, 4);
    e->losses = (uint32_t)util_get_le(p + 28, 4);
    return p[11] == 0 && e->from < SQUARE_COUNT && e->to < SQUARE_COUNT && e->from != e->to &&
           e->flags <= MOVE_PROMOTES && !(e->captured & (1u << e->from));
}

static int compare(const void *a, const void *b)
{
    const BookEntry *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (int)y->weight - (int)x->weight;
}

static Key start_key(void)
{
    Board b;
    board_start(&b);
    return b.key;
}

bool book_write(const char *path, BookEntry *entries, size_t n, char *err, size_t errlen)
{
    qsort(entries, n, sizeof *entries, compare);
    uint8_t *buf = malloc(BOOK_HEADER + n * BOOK_ENTRY);
    if (!buf)
        return fail(err, errlen, "out of memory writing %s", path);
    for (size_t i = 0; i < n; i++)
        put_entry(buf + BOOK_HEADER + i * BOOK_ENTRY, &entries[i]);
    memcpy(buf, MAGIC, 8);
    util_put_le(buf + 8, BOOK_VERSION, 4);
    util_put_le(buf + 12, 0, 4);
    util_put_le(buf + 16, n, 8);
    util_put_le(buf + 24, start_key(), 8);
    util_put_le(buf + 32, util_fnv1a(buf + BOOK_HEADER, n * BOOK_ENTRY, UTIL_FNV_BASIS), 8);
    // Written beside and renamed, so that a reader never sees half a book.
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(buf, 1, BOOK_HEADER + n * BOOK_ENTRY, f) == BOOK_HEADER + n * BOOK_ENTRY;
    if (f && fclose(f) != 0)
        ok = false;
    free(buf);
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return false;
    }
    return true;
}

Book *book_open(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(err, errlen, "cannot open book %s", path), NULL;
    uint8_t h[BOOK_HEADER];
    const char *why = NULL;
    Book *book = calloc(1, sizeof *book);
    uint8_t *buf = NULL;
    size_t n = 0;
    if (!book)
        why = "out of memory reading %s";
    else if (fread(h, 1, BOOK_HEADER, f) != BOOK_HEADER)
        why = "%s: truncated (no header)";
    else if (memcmp(h, MAGIC, 8) != 0)
        why = "%s: not a Damka book";
    else if (util_get_le(h + 8, 4) != BOOK_VERSION)
        why = "%s: another version of the book format";
    else if (util_get_le(h + 24, 8) != start_key())
        why = "%s: made with other position keys";
    else if ((n = (size_t)util_get_le(h + 16, 8)) > BOOK_ENTRIES_MAX)
        why = "%s: corrupt (entry count)";
    else if (!(buf = malloc(n * BOOK_ENTRY + 1)) ||
             !(book->entries = malloc((n + 1) * sizeof *book->entries)))
        why = "out of memory reading %s";
    else if (fread(buf, 1, n * BOOK_ENTRY + 1, f) != n * BOOK_ENTRY)
        why = "%s: truncated or too long";
    else if (util_get_le(h + 32, 8) != util_fnv1a(buf, n * BOOK_ENTRY, UTIL_FNV_BASIS))
        why = "%s: corrupt (checksum)";
    for (size_t i = 0; !why && i < n; i++)
        if (!get_entry(buf + i * BOOK_ENTRY, &book->entries[i]) ||
            (i > 0 && book->entries[i].key < book->entries[i - 1].key))
            why = "%s: corrupt (an entry)";
    fclose(f);
    free(buf);
    if (why) {
        fail(err, errlen, why, path);
        book_close(book);
        return NULL;
    }
    book->n = n;
    return book;
}

void book_close(Book *book)
{
    if (!book)
        return;
    free(book->entries);
    free(book);
}

size_t book_entries(const Book *book) { return book ? book->n : 0; }

const BookEntry *book_entry(const Book *book, size_t i) { return &book->entries[i]; }

int book_probe(const Book *book, const Board *b, BookEntry *out, Move *moves, int max)
{
    if (!book || book->n == 0)
        return 0;
    size_t lo = 0, hi = book->n; // the first entry of key >= b->key
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (book->entries[mid].key < b->key)
            lo = mid + 1;
        else
            hi = mid;
    }
    MoveList list;
    int legal = movegen_all(b, &list), n = 0;
    for (size_t i = lo; i < book->n && book->entries[i].key == b->key && n < max; i++)
        for (int k = 0; k < legal; k++)
            if (book_entry_is(&book->entries[i], &list.moves[k])) {
                out[n] = book->entries[i];
                moves[n++] = list.moves[k];
                break;
            }
    return n;
}
