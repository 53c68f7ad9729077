// SPDX-License-Identifier: MIT
// End of the game (FMJD draughts-64, 7.2): no legal move, repetition, and the draw counters of
// 7.2.4-7.2.8, carried with the game and updated in search.
#ifndef RULES_H_INCLUDED
#define RULES_H_INCLUDED

#include "types.h"

// Counters that move with the game, one value per ply.
typedef struct DrawCounters {
    uint16_t reversible; // plies since the last man move or capture (7.2.3 window, 7.2.5)
    uint16_t balance;    // plies since the last capture or promotion (7.2.4, 7.2.6, 7.2.8)
    uint16_t diagonal;   // plies the ending of 7.2.7 has held: three pieces (a king among
                         // them) against a lone king standing on the long diagonal a1-h8
} DrawCounters;

typedef enum GameResult {
    GAME_ONGOING = 0,
    GAME_LOSS,            // the side to move has no legal move: it has lost
    GAME_DRAW_REPETITION, // 7.2.3
    GAME_DRAW_3K_VS_K,    // 7.2.4
    GAME_DRAW_KINGS_ONLY, // 7.2.5
    GAME_DRAW_BALANCE,    // 7.2.6
    GAME_DRAW_DIAGONAL,   // 7.2.7
    GAME_DRAW_SMALL,      // 7.2.8
} GameResult;

// The counters after m is played from b (b is the position before the move).
DrawCounters rules_after_move(DrawCounters c, const Board *b, const Move *m);

// True in the ending of 7.2.7: three pieces, a king among them, against a lone king standing on
// the long diagonal a1-h8.
bool rules_diagonal_ending(const Board *b);

// The draw rule among 7.2.4-7.2.8 that the counters and material of b reach, or GAME_ONGOING.
GameResult rules_counter_draw(const Board *b, DrawCounters c);

// Number of earlier occurrences of the position with key `key` among keys[0..n-1] (the keys of
// the earlier plies, oldest first), looking back at most `reversible` plies.
int rules_repetitions(const Key *keys, int n, Key key, int reversible);

// The full verdict on a position of a game: loss, repetition (third occurrence), counter draw.
GameResult rules_game_result(const Board *b, DrawCounters c, const Key *keys, int n);

// Short text for a result ("no legal move", "threefold repetition (7.2.3)", ...).
const char *rules_result_text(GameResult r);

#endif
