// SPDX-License-Identifier: MIT
// Owns Board: setup, copy-make move play with incremental Zobrist keys, invariants.
#include "board.h"

#include <assert.h>
#include <string.h>

#include "bitboard.h"
#include "tables.h"

void board_clear(Board *b, Side side)
{
    tables_init();
    memset(b, 0, sizeof *b);
    b->side = side;
    b->key = board_compute_key(b);
}

void board_start(Board *b)
{
    board_clear(b, SIDE_WHITE);
    for (Square s = 0; s < 12; s++)
        b->pieces[SIDE_BLACK] |= g_square_bb[s];
    for (Square s = 20; s < 32; s++)
        b->pieces[SIDE_WHITE] |= g_square_bb[s];
    b->key = board_compute_key(b);
}

static Key piece_keys(Bitboard bb, Side side, int king)
{
    Key k = 0;
    for (; bb; bb = bb_pop(bb))
        k ^= g_zobrist[side][king][bb_lsb(bb)];
    return k;
}

Key board_compute_key(const Board *b)
{
    Key k = b->side == SIDE_BLACK ? g_zobrist_side : 0;
    for (int s = 0; s < 2; s++) {
        k ^= piece_keys(b->pieces[s] & ~b->kings, (Side)s, 0);
        k ^= piece_keys(b->pieces[s] & b->kings, (Side)s, 1);
    }
    return k;
}

void board_play_unkeyed(Board *b, const Move *m)
{
    Side us = b->side, them = side_flip(us);
    Bitboard from = g_square_bb[m->from], to = g_square_bb[m->to];
    Bitboard is_king = ((b->kings & from) != 0) | (m->flags & MOVE_PROMOTES);

    // From == to is possible (a capture that loops back); xor-ing both bits then cancels out.
    // The king bit is moved without branches: this runs at every node of search and perft.
    b->pieces[us] ^= from ^ to;
    b->kings = (b->kings & ~from) | (to & (0 - is_king));
    b->pieces[them] &= ~m->captured;
    b->kings &= ~m->captured;
    b->side = them;
}

Key board_key_after(const Board *b, const Move *m)
{
    Side us = b->side, them = side_flip(us);
    int fbit = bb_lsb(g_square_bb[m->from]), tbit = bb_lsb(g_square_bb[m->to]);
    int was_king = (int)((b->kings >> fbit) & 1);
    int is_king = was_king | (m->flags & MOVE_PROMOTES);
    Key key =
        b->key ^ g_zobrist[us][was_king][fbit] ^ g_zobrist[us][is_king][tbit] ^ g_zobrist_side;
    for (Bitboard c = m->captured; c; c = bb_pop(c)) {
        int bit = bb_lsb(c);
        key ^= g_zobrist[them][(b->kings >> bit) & 1][bit];
    }
    return key;
}

void board_play(Board *b, const Move *m)
{
    Key key = board_key_after(b, m);
    board_play_unkeyed(b, m);
    b->key = key;
    assert(board_is_ok(b));
}

bool board_is_ok(const Board *b)
{
    Bitboard w = b->pieces[SIDE_WHITE], bl = b->pieces[SIDE_BLACK];
    if ((w & bl) || ((w | bl) & ~BB_VALID) || (b->kings & ~(w | bl)))
        return false;
    if ((w & ~b->kings & BB_RANK8) || (bl & ~b->kings & BB_RANK1))
        return false;
    if (b->side != SIDE_WHITE && b->side != SIDE_BLACK)
        return false;
    return b->key == board_compute_key(b);
}

void board_mirror(const Board *b, Board *out)
{
    // Rotating the board 180 degrees maps square s to 31 - s and keeps every diagonal.
    board_clear(out, side_flip(b->side));
    for (Square s = 0; s < SQUARE_COUNT; s++) {
        Bitboard bb = g_square_bb[s], to = g_square_bb[31 - s];
        for (int side = 0; side < 2; side++)
            if (b->pieces[side] & bb)
                out->pieces[side ^ 1] |= to;
        if (b->kings & bb)
            out->kings |= to;
    }
    out->key = board_compute_key(out);
}

int board_piece_at(const Board *b, Square s)
{
    Bitboard bb = g_square_bb[s];
    int king = (b->kings & bb) ? 2 : 0;
    if (b->pieces[SIDE_WHITE] & bb)
        return 1 + king;
    if (b->pieces[SIDE_BLACK] & bb)
        return 2 + king;
    return 0;
}

bool board_equal(const Board *a, const Board *b)
{
    return a->pieces[0] == b->pieces[0] && a->pieces[1] == b->pieces[1] && a->kings == b->kings &&
           a->side == b->side;
}

bool board_set_squares(Board *b, uint32_t white, uint32_t black, uint32_t kings, Side side)
{
    tables_init();
    if ((white & black) || (kings & ~(white | black)))
        return false;
    Board n;
    memset(&n, 0, sizeof n);
    n.side = side;
    for (Square s = 0; s < SQUARE_COUNT; s++) {
        uint32_t bit = UINT32_C(1) << s;
        if (white & bit)
            n.pieces[SIDE_WHITE] |= g_square_bb[s];
        if (black & bit)
            n.pieces[SIDE_BLACK] |= g_square_bb[s];
        if (kings & bit)
            n.kings |= g_square_bb[s];
    }
    Bitboard men = (n.pieces[0] | n.pieces[1]) & ~n.kings;
    if ((men & n.pieces[SIDE_WHITE] & BB_RANK8) || (men & n.pieces[SIDE_BLACK] & BB_RANK1))
        return false;
    n.key = board_compute_key(&n);
    *b = n;
    return true;
}

void board_squares(const Board *b, uint32_t *white, uint32_t *black, uint32_t *kings)
{
    *white = *black = *kings = 0;
    for (Square s = 0; s < SQUARE_COUNT; s++) {
        uint32_t bit = UINT32_C(1) << s;
        if (b->pieces[SIDE_WHITE] & g_square_bb[s])
            *white |= bit;
        if (b->pieces[SIDE_BLACK] & g_square_bb[s])
            *black |= bit;
        if (b->kings & g_square_bb[s])
            *kings |= bit;
    }
}
