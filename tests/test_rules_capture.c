// SPDX-License-Identifier: MIT
// One test per rule of docs/rules.md (moves 2.1.4.x and captures 4.x), each named
// after its number and run on a position built for it.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitboard.h"
#include "board.h"
#include "movegen.h"
#include "notation.h"
#include "tables.h"
#include "test_suites.h"

static int cmp_str(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

// Asserts that the legal moves of fen are exactly `want` (Hub form: from-to, or
// from x to x captured squares in numeric order), in any order.
static void expect_moves(const char *fen, const char *const *want, int nwant)
{
    Board b;
    MoveList list;
    char got[MAX_MOVES][MOVE_TEXT_MAX], exp[32][MOVE_TEXT_MAX];
    test_fen(fen, &b);
    int n = movegen_all(&b, &list);
    ck_assert_msg(n == nwant, "%s: %d moves, want %d", fen, n, nwant);
    for (int i = 0; i < n; i++)
        notation_move(&list.moves[i], MOVE_FMT_HUB, got[i], MOVE_TEXT_MAX);
    for (int i = 0; i < nwant; i++)
        snprintf(exp[i], MOVE_TEXT_MAX, "%s", want[i]);
    qsort(got, (size_t)n, MOVE_TEXT_MAX, cmp_str);
    qsort(exp, (size_t)nwant, MOVE_TEXT_MAX, cmp_str);
    for (int i = 0; i < n; i++)
        ck_assert_msg(strcmp(got[i], exp[i]) == 0, "%s: got %s, want %s", fen, got[i], exp[i]);
}

#define EXPECT(fen, ...)                                                                           \
    do {                                                                                           \
        static const char *const want_[] = {__VA_ARGS__};                                          \
        expect_moves(fen, want_, (int)(sizeof want_ / sizeof want_[0]));                           \
    } while (0)

// Plays the move named by text on b (the test knows it is legal).
static void play_text(Board *b, const char *text)
{
    Move m;
    char err[128] = "";
    ck_assert_msg(notation_parse_move(b, text, MOVE_FMT_ALG, &m, err, sizeof err), "%s", err);
    board_play(b, &m);
}

static void expect_fen(const Board *b, const char *want)
{
    char fen[FEN_MAX];
    notation_fen(b, fen, sizeof fen);
    ck_assert_str_eq(fen, want);
}

START_TEST(rule_2_1_4_1_players_alternate)
{
    Board b;
    board_start(&b);
    ck_assert_int_eq(b.side, SIDE_WHITE); // White moves first
    play_text(&b, "c3-d4");
    ck_assert_int_eq(b.side, SIDE_BLACK);
    play_text(&b, "f6-g5");
    ck_assert_int_eq(b.side, SIDE_WHITE);
}
END_TEST

START_TEST(rule_2_1_4_3_man_moves_forward_only)
{
    EXPECT("W:W22", "22-17", "22-18"); // c3: b4 or d4, never back
    EXPECT("B:B10", "10-14", "10-15"); // d6 (black): c5 or e5
    EXPECT("W:W22:B13,17", "22-18");   // b4 taken by a black man that cannot be jumped
    EXPECT("W:W29", "29-25");          // a1: edge of the board
}
END_TEST

START_TEST(rule_2_1_4_4_man_promotes_on_far_rank)
{
    Board b;
    test_fen("W:W8:B20", &b); // g7
    play_text(&b, "g7-h8");
    expect_fen(&b, "B:WK4:B20");
    test_fen("B:W13:B25", &b); // black b2 -> a1
    play_text(&b, "b2-a1");
    expect_fen(&b, "W:W13:BK29");
}
END_TEST

START_TEST(rule_2_1_4_5_king_moves_any_distance)
{
    EXPECT("W:WK29", "29-25", "29-22", "29-18", "29-15", "29-11", "29-8", "29-4");
    // Own man on d4 stops the king: it cannot jump its own pieces.
    EXPECT("W:WK29,18", "29-25", "29-22", "18-14", "18-15");
}
END_TEST

START_TEST(rule_4_1_man_captures_forward_and_backward)
{
    EXPECT("W:W15,29:B4,18", "15x22x18"); // e5 takes d4 backward, lands c3
    EXPECT("B:W15,30:B1,18", "18x11x15"); // black d4 takes e5 backward
    EXPECT("W:W22:B18", "22x15x18");      // forward
}
END_TEST

START_TEST(rule_4_2_king_captures_at_distance_any_landing)
{
    EXPECT("W:WK29:B1,18", "29x15x18", "29x11x18", "29x8x18", "29x4x18");
}
END_TEST

START_TEST(rule_4_3_capture_is_compulsory)
{
    // 1.c3-d4 f6-e5: White must take; no quiet move is legal. Own pieces are never taken.
    EXPECT("W:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15", "18x11x15");
    Board b;
    test_fen("W:W22,18:B1", &b); // c3 and d4 in line: no capture of one's own man
    ck_assert(!movegen_has_capture(&b));
}
END_TEST

START_TEST(rule_4_4_capture_route_recorded_in_order)
{
    Board b;
    MoveList list;
    char text[MOVE_TEXT_MAX];
    test_fen("W:W22:B10,18,19", &b);
    movegen_all(&b, &list);
    ck_assert_int_eq(list.count, 2);
    for (int i = 0; i < list.count; i++) {
        notation_move(&list.moves[i], MOVE_FMT_ALG, text, sizeof text);
        ck_assert_msg(strcmp(text, "c3:e5:c7") == 0 || strcmp(text, "c3:e5:g3") == 0, "%s", text);
    }
}
END_TEST

START_TEST(rule_4_5_man_capture_continues)
{
    // After c3:e5 the man must go on; stopping on e5 is not a move.
    EXPECT("W:W22:B10,18,19", "22x6x10x18", "22x24x18x19");
}
END_TEST

START_TEST(rule_4_6_king_lands_where_capture_continues)
{
    // a1 takes c3; of the landings d4..h8 only d4 lets the capture go on (takes f4).
    EXPECT("W:WK29:B1,19,22", "29x24x19x22", "29x28x19x22");
    // Two different continuation squares on the first ray.
    EXPECT("W:WK29:B19,22,23", "29x27x22x23", "29x32x22x23", "29x24x19x22", "29x28x19x22");
}
END_TEST

START_TEST(rule_4_7_turkish_strike)
{
    // Captured e7 stays on the board until the move ends and blocks the king: no capture of g7
    // by coming back through e7.
    EXPECT("W:WK2:B7,8,17,19,25", "2x4x7x8", "2x29x7x25", "2x13x7x17x19", "2x14x7x17x19x25",
           "2x10x7x17x19x25");
}
END_TEST

START_TEST(rule_4_8_never_jump_own_pieces)
{
    // King a1, own man b2, enemy c3: the king cannot take over its own man; the man takes.
    EXPECT("W:WK29,25:B22", "25x18x22");
}
END_TEST

START_TEST(rule_4_9_same_square_twice_same_piece_once)
{
    // The man's route returns to its own start square: allowed (one move, two routes).
    EXPECT("W:W26:B4,14,15,22,23", "26x26x14x15x22x23");
    // A piece already taken cannot be jumped again: d6 takes e7, and cannot come back over it.
    EXPECT("W:W10:B2,7,17", "10x3x7");
}
END_TEST

START_TEST(rule_4_10_capture_sequence_played_to_its_end)
{
    // A capture stopped half-way (c3:e5 when it must go on) is not a move.
    Board b;
    Move m;
    char err[128];
    test_fen("W:W22:B10,18,19", &b);
    ck_assert(!notation_parse_move(&b, "c3:e5", MOVE_FMT_ALG, &m, err, sizeof err));
    ck_assert(notation_parse_move(&b, "c3:e5:c7", MOVE_FMT_ALG, &m, err, sizeof err));
    // The king of rule 4.7 may not stop on b4 after taking e7 and f4 when c3 can go on.
    test_fen("W:WK2:B7,8,17,19,25", &b);
    ck_assert(!notation_parse_move(&b, "d8:g5:e3", MOVE_FMT_ALG, &m, err, sizeof err));
}
END_TEST

START_TEST(rule_4_11_captured_pieces_removed_after_move)
{
    Board b;
    test_fen("W:W17,26,27:B2,4,7,8,14,15,16,18", &b);
    play_text(&b, "b4:d6:f8:h6:f4:d6");
    expect_fen(&b, "B:WK10,26,27:B2,4,18");
}
END_TEST

START_TEST(rule_4_12_free_choice_of_capture)
{
    // White may take one piece or two: no rule of the majority.
    EXPECT("W:W22,28:B10,18,24", "22x6x10x18", "28x19x24");
}
END_TEST

START_TEST(rule_4_13_promotion_mid_capture_continues_as_king)
{
    EXPECT("W:W9:B4,6,11", "9x16x6x11", "9x20x6x11");
    EXPECT("B:W22,27,29:B24", "24x17x22x27", "24x13x22x27");
    Board b;
    test_fen("W:W9:B4,6,11", &b);
    play_text(&b, "b6:d8:g5");
    expect_fen(&b, "B:WK16:B4");
}
END_TEST

START_TEST(rule_4_14_promotion_without_capture_ends_move)
{
    // Reaching the last rank by a quiet move: crowned, and the move ends.
    EXPECT("W:W8,29:B10,21", "8-3", "8-4", "29-25");
    // Reaching it by a capture with no further capture: crowned and stops there.
    Board b;
    test_fen("W:W10,29:B7,8,12", &b);
    play_text(&b, "d6:f8");
    expect_fen(&b, "B:WK3,29:B8,12");
}
END_TEST

START_TEST(rule_same_position_is_one_move)
{
    // A king takes b2 then e5 landing on c3 or d4 in between: three moves, not six.
    EXPECT("W:WK29:B1,15,25", "29x11x15x25", "29x8x15x25", "29x4x15x25");
    EXPECT("W:WK29:B1,15,25,26", "29x11x15x25", "29x8x15x25", "29x4x15x25", "29x31x25x26");
}
END_TEST

START_TEST(rule_7_2_no_legal_move_loses)
{
    // White's only man is blocked: no move at all (the game-end rules score it as a loss).
    Board b;
    MoveList list;
    test_fen("W:W29:B22,25", &b);
    ck_assert_int_eq(movegen_all(&b, &list), 0);
    ck_assert_int_eq(movegen_count(&b), 0);
    test_fen("B:WK1:B", &b); // no black piece left
    ck_assert_int_eq(movegen_all(&b, &list), 0);
}
END_TEST

Suite *suite_rules_capture(void)
{
    Suite *s = suite_create("rules");
    TCase *tc = tcase_create("moves-and-captures");
    tcase_add_test(tc, rule_2_1_4_1_players_alternate);
    tcase_add_test(tc, rule_2_1_4_3_man_moves_forward_only);
    tcase_add_test(tc, rule_2_1_4_4_man_promotes_on_far_rank);
    tcase_add_test(tc, rule_2_1_4_5_king_moves_any_distance);
    tcase_add_test(tc, rule_4_1_man_captures_forward_and_backward);
    tcase_add_test(tc, rule_4_2_king_captures_at_distance_any_landing);
    tcase_add_test(tc, rule_4_3_capture_is_compulsory);
    tcase_add_test(tc, rule_4_4_capture_route_recorded_in_order);
    tcase_add_test(tc, rule_4_5_man_capture_continues);
    tcase_add_test(tc, rule_4_6_king_lands_where_capture_continues);
    tcase_add_test(tc, rule_4_7_turkish_strike);
    tcase_add_test(tc, rule_4_8_never_jump_own_pieces);
    tcase_add_test(tc, rule_4_9_same_square_twice_same_piece_once);
    tcase_add_test(tc, rule_4_10_capture_sequence_played_to_its_end);
    tcase_add_test(tc, rule_4_11_captured_pieces_removed_after_move);
    tcase_add_test(tc, rule_4_12_free_choice_of_capture);
    tcase_add_test(tc, rule_4_13_promotion_mid_capture_continues_as_king);
    tcase_add_test(tc, rule_4_14_promotion_without_capture_ends_move);
    tcase_add_test(tc, rule_same_position_is_one_move);
    tcase_add_test(tc, rule_7_2_no_legal_move_loses);
    suite_add_tcase(s, tc);
    return s;
}
