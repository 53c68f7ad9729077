// SPDX-License-Identifier: MIT
// Owns the game-end rules: no legal move loses, repetition and the 7.2.4-7.2.8 draw counters.
#include "rules.h"

#include "bitboard.h"
#include "board.h"
#include "movegen.h"
#include "tables.h"

// In rule 7.2 "a move" is one move by each player: N moves = 2N plies.
enum {
    PLIES_3K_VS_K = 30,        // 7.2.4: 15 moves
    PLIES_KINGS_ONLY = 30,     // 7.2.5: 15 moves
    PLIES_BALANCE_SMALL = 60,  // 7.2.6: 30 moves with 4 or 5 pieces
    PLIES_BALANCE_LARGE = 120, // 7.2.6: 60 moves with 6 or 7 pieces
    PLIES_DIAGONAL = 10,       // 7.2.7: 5 moves
    PLIES_SMALL = 10,          // 7.2.8: 5 moves
};

// The long diagonal a1-h8: squares 29, 25, 22, 18, 15, 11, 8, 4.
static Bitboard long_diagonal(void)
{
    Bitboard d = 0;
    for (int x = 0; x < 8; x++)
        d |= g_square_bb[tables_square_at(x, x)];
    return d;
}

bool rules_diagonal_ending(const Board *b)
{
    if (bb_count(b->pieces[0] | b->pieces[1]) != 4 || !b->kings)
        return false;
    for (int weak = 0; weak < 2; weak++) {
        Bitboard w = b->pieces[weak], s = b->pieces[weak ^ 1];
        if (bb_count(w) == 1 && (w & b->kings) && (w & long_diagonal()) && bb_count(s) == 3 &&
            (s & b->kings))
            return true;
    }
    return false;
}

DrawCounters rules_after_move(DrawCounters c, const Board *b, const Move *m)
{
    bool man_moved = !(b->kings & g_square_bb[m->from]);
    bool capture = m->captured != 0, promotion = (m->flags & MOVE_PROMOTES) != 0;
    c.reversible = (man_moved || capture) ? 0 : (uint16_t)(c.reversible + 1);
    c.balance = (capture || promotion) ? 0 : (uint16_t)(c.balance + 1);
    // 7.2.7 counts from when the lone king came to the long diagonal in that ending: it
    // starts again whenever the ending arises anew (only 4-piece positions can be in it).
    uint16_t diagonal = 0;
    if (bb_count(b->pieces[0] | b->pieces[1]) - bb_count(m->captured) == 4) {
        Board after = *b;
        board_play_unkeyed(&after, m);
        if (rules_diagonal_ending(&after))
            diagonal =
                !capture && !promotion && rules_diagonal_ending(b) ? (uint16_t)(c.diagonal + 1) : 0;
    }
    c.diagonal = diagonal;
    return c;
}

GameResult rules_counter_draw(const Board *b, DrawCounters c)
{
    if (c.reversible >= PLIES_KINGS_ONLY)
        return GAME_DRAW_KINGS_ONLY;
    // Every other counter needs kings on the board and at least PLIES_SMALL quiet plies (the
    // shortest of them): the common case in search ends here.
    if (!b->kings || c.balance < PLIES_SMALL)
        return GAME_ONGOING;
    int kings[2], men[2];
    for (int s = 0; s < 2; s++) {
        kings[s] = bb_count(b->pieces[s] & b->kings);
        men[s] = bb_count(b->pieces[s] & ~b->kings);
    }
    // Lone king against a stronger side with at least one king (7.2.4, 7.2.7, 7.2.8).
    for (int weak = 0; weak < 2; weak++) {
        int strong = weak ^ 1, n = kings[strong] + men[strong];
        if (kings[weak] != 1 || men[weak] != 0 || kings[strong] == 0)
            continue;
        if (n <= 2 && c.balance >= PLIES_SMALL)
            return GAME_DRAW_SMALL;
        if (n == 3 && (b->pieces[weak] & long_diagonal()) && c.diagonal >= PLIES_DIAGONAL)
            return GAME_DRAW_DIAGONAL;
        if (kings[strong] >= 3 && c.balance >= PLIES_3K_VS_K)
            return GAME_DRAW_3K_VS_K;
    }
    int total = kings[0] + kings[1] + men[0] + men[1];
    if (kings[0] && kings[1]) {
        if (total >= 4 && total <= 5 && c.balance >= PLIES_BALANCE_SMALL)
            return GAME_DRAW_BALANCE;
        if (total >= 6 && total <= 7 && c.balance >= PLIES_BALANCE_LARGE)
            return GAME_DRAW_BALANCE;
    }
    return GAME_ONGOING;
}

int rules_repetitions(const Key *keys, int n, Key key, int reversible)
{
    // Same side to move: look back two plies at a time, no further than the last man move or
    // capture (no position before it can come back).
    int count = 0;
    for (int i = n - 2; i >= 0 && i >= n - reversible; i -= 2)
        if (keys[i] == key)
            count++;
    return count;
}

GameResult rules_game_result(const Board *b, DrawCounters c, const Key *keys, int n)
{
    if (movegen_count(b) == 0)
        return GAME_LOSS;
    if (rules_repetitions(keys, n, b->key, c.reversible) >= 2)
        return GAME_DRAW_REPETITION;
    return rules_counter_draw(b, c);
}

const char *rules_result_text(GameResult r)
{
    switch (r) {
    case GAME_ONGOING:
        return "game goes on";
    case GAME_LOSS:
        return "no legal move";
    case GAME_DRAW_REPETITION:
        return "threefold repetition (7.2.3)";
    case GAME_DRAW_3K_VS_K:
        return "three kings against one, 15 moves (7.2.4)";
    case GAME_DRAW_KINGS_ONLY:
        return "15 moves of kings only (7.2.5)";
    case GAME_DRAW_BALANCE:
        return "unchanged balance with kings (7.2.6)";
    case GAME_DRAW_DIAGONAL:
        return "lone king on the long diagonal, 5 moves (7.2.7)";
    case GAME_DRAW_SMALL:
        return "small ending against a lone king, 5 moves (7.2.8)";
    }
    return "unknown";
}
