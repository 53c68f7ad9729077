// SPDX-License-Identifier: MIT
// The opening book: positions by Damka's Zobrist key, each with the moves played there; per move
// a weight, a learned score and the wins, draws and losses of the games that played it. The
// engine reads it (book_open, book_probe); the builder, tools/book/, writes it (book_write).
// Format (docs/formats.md): a 40-byte header ("DAMKABOK", u32 version, u32 0, u64 entry count,
// u64 the start position's key, so that a book of other keys is refused, u64 FNV-1a of the
// entries), then the entries, 32 bytes each, sorted by key (then by weight, heaviest first);
// little-endian.
#ifndef BOOK_H_INCLUDED
#define BOOK_H_INCLUDED

#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "types.h"

enum {
    BOOK_VERSION = 1,
    BOOK_HEADER = 40,
    BOOK_ENTRY = 32,
    BOOK_MOVES_MAX = 64, // moves of one position the engine considers
    BOOK_ERR_MAX = 200,
};

// One move of one position.
typedef struct BookEntry {
    Key key;           // the position's key (board_compute_key)
    uint8_t from, to;  // the move: origin and destination squares (0 = square 1),
    uint8_t flags;     // MOVE_PROMOTES,
    uint32_t captured; // and the squares it takes (bit s = square s + 1)
    uint16_t weight;   // how often to play it, relative to the position's other moves
    int16_t score;     // centi-men for the side to move after the builder's search or learning
    uint32_t wins, draws, losses; // results of the games that played it, for its side
} BookEntry;

typedef struct Book Book;

// Reads a book file into memory, checking its header, size, keys and checksum. NULL with one
// line in err when it is missing, truncated, corrupt or of another version.
Book *book_open(const char *path, char *err, size_t errlen);
void book_close(Book *book);

// Entries of the book (positions times moves).
size_t book_entries(const Book *book);
const BookEntry *book_entry(const Book *book, size_t i);

// The book's moves of b that are legal in b: their entries in out and the moves in moves, in
// the order of the file; returns their count (at most max).
int book_probe(const Book *book, const Board *b, BookEntry *out, Move *moves, int max);

// The entry's fields for move m of position b (weight, score and counts left at 0).
void book_entry_of(const Board *b, const Move *m, BookEntry *out);

// True when entry e names move m (of the position it was made for).
bool book_entry_is(const BookEntry *e, const Move *m);

// Sorts entries by key, then weight (heaviest first), and writes them. False with one line in
// err when the file cannot be written.
bool book_write(const char *path, BookEntry *entries, size_t n, char *err, size_t errlen);

#endif
