// SPDX-License-Identifier: MIT
// Notation tests: FEN and Hub position round trips, move text in every format, and tables of
// malformed FENs and move strings that must each be refused with a reason.
#include <string.h>

#include "bitboard.h"
#include "board.h"
#include "movegen.h"
#include "notation.h"
#include "test_suites.h"

START_TEST(test_fen_start_forms)
{
    static const char *const forms[] = {
        "W:W21-32:B1-12",
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        "W:B1-12:W21-32",
        "W:W21-32:B1-12:H0:F1",
        "  W:W21-32:B1-12\r\n",
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6",
    };
    Board start, b;
    board_start(&start);
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        test_fen(forms[i], &b);
        ck_assert_msg(board_equal(&b, &start), "form %zu", i);
        ck_assert_uint_eq(b.key, start.key);
    }
    char fen[FEN_MAX];
    notation_fen(&start, fen, sizeof fen);
    ck_assert_str_eq(fen, "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
}
END_TEST

START_TEST(test_fen_kings_and_round_trip)
{
    Board b, again;
    char fen[FEN_MAX], fen2[FEN_MAX];
    test_fen("B:WK1-3,Ka1,c3:BKh2,12", &b);
    notation_fen(&b, fen, sizeof fen);
    ck_assert_str_eq(fen, "B:WK1,K2,K3,22,K29:B12,K28");
    test_fen(fen, &again);
    notation_fen(&again, fen2, sizeof fen2);
    ck_assert_str_eq(fen, fen2);
    ck_assert(board_equal(&b, &again));
}
END_TEST

START_TEST(test_fen_round_trip_random_games)
{
    uint64_t seed = 99;
    for (int game = 0; game < 100; game++) {
        Board b;
        board_start(&b);
        for (int ply = 0; ply < 120; ply++) {
            char fen[FEN_MAX], hub[64];
            Board back;
            notation_fen(&b, fen, sizeof fen);
            test_fen(fen, &back);
            ck_assert(board_equal(&b, &back));
            notation_hub_pos(&b, hub, sizeof hub);
            char err[128];
            ck_assert_msg(notation_parse_hub_pos(hub, &back, err, sizeof err), "%s", err);
            ck_assert(board_equal(&b, &back));
            MoveList list;
            int n = movegen_all(&b, &list);
            if (n == 0)
                break;
            board_play(&b, &list.moves[test_rand(&seed) % (uint64_t)n]);
        }
    }
}
END_TEST

// Each malformed FEN must be refused, with a reason, and leave the board untouched.
static const char *const BAD_FENS[] = {
    "",                   // empty
    "X:W21-32:B1-12",     // bad side letter
    "W;W21-32:B1-12",     // bad separator
    "W:W21-33:B1-12",     // square outside 1-32
    "W:W0:B1",            // square 0
    "W:Wa2:B1",           // light square
    "W:Wi1:B1",           // off the board
    "W:W21,21:B1",        // square given twice
    "W:W21:B21",          // square given to both colours
    "W:W1:B12",           // white man on its promotion rank
    "W:W21:B30",          // black man on its promotion rank
    "W:W21-32:B1-12junk", // junk characters
    "W:W21-32:B1-12:Q5",  // unknown field
    "W:W21-:B1",          // half a range
    "W:W25-21:B1",        // backward range
    "W:W21:W22",          // colour given twice
    "W:W1-13,K14-32:B",   // more than 12 pieces
    "W:W2x:B1",           // junk inside the list
    "W:W\x01\xff:B1",     // binary junk
    "W:W123:B1",          // three digits
};

START_TEST(test_fen_malformed)
{
    Board b, before;
    board_start(&b);
    before = b;
    char err[128];
    err[0] = '\0';
    ck_assert_msg(!notation_parse_fen(BAD_FENS[_i], &b, err, sizeof err), "accepted '%s'",
                  BAD_FENS[_i]);
    ck_assert_msg(strlen(err) > 0, "no reason for '%s'", BAD_FENS[_i]);
    ck_assert(board_equal(&b, &before));
}
END_TEST

START_TEST(test_hub_pos_malformed)
{
    static const char *const bad[] = {
        "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwww",  // 32 characters
        "Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww", // side
        "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwx", // piece letter
        "Wwbbbbbbbbbbbeeeeeeeewwwwwwwwwwww", // white man on square 1
    };
    Board b;
    char err[128];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(!notation_parse_hub_pos(bad[i], &b, err, sizeof err), "%s", bad[i]);
    ck_assert(notation_parse_hub_pos("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww", &b, err, sizeof err));
    Board start;
    board_start(&start);
    ck_assert(board_equal(&b, &start));
}
END_TEST

static void expect_text(const char *fen, const char *move, MoveFormat fmt, const char *want)
{
    Board b;
    Move m;
    char err[128], text[MOVE_TEXT_MAX];
    test_fen(fen, &b);
    ck_assert_msg(notation_parse_move(&b, move, MOVE_FMT_ALG, &m, err, sizeof err), "%s", err);
    notation_move(&m, fmt, text, sizeof text);
    ck_assert_str_eq(text, want);
}

START_TEST(test_move_output_formats)
{
    const char *start = "W:W21-32:B1-12";
    expect_text(start, "c3-d4", MOVE_FMT_UCI, "c3d4");
    expect_text(start, "c3-d4", MOVE_FMT_ALG, "c3-d4");
    expect_text(start, "c3-d4", MOVE_FMT_NUMERIC, "22-18");
    expect_text(start, "c3-d4", MOVE_FMT_HUB, "22-18");
    expect_text(start, "c3-d4", MOVE_FMT_HUB_A1, "10-14");
    const char *two = "W:W22:B10,18,19";
    expect_text(two, "c3:e5:c7", MOVE_FMT_UCI, "c3e5c7");
    expect_text(two, "c3:e5:c7", MOVE_FMT_ALG, "c3:e5:c7");
    expect_text(two, "c3:e5:c7", MOVE_FMT_NUMERIC, "22x15x6");
    expect_text(two, "c3:e5:c7", MOVE_FMT_HUB, "22x6x10x18");
    expect_text(two, "c3:e5:c7", MOVE_FMT_HUB_A1, "10x26x22x14");
}
END_TEST

START_TEST(test_move_input_forms)
{
    // Every accepted input form names the same move.
    static const char *const forms[] = {"c3e5c7",  "c3:e5:c7", "c3xe5xc7", "c3-e5-c7",
                                        "22x15x6", "22-15-6",  "c3:c7",    "22x6"};
    Board b;
    Move m;
    char err[128], text[MOVE_TEXT_MAX];
    test_fen("W:W22:B10,18,19", &b);
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        ck_assert_msg(notation_parse_move(&b, forms[i], MOVE_FMT_ALG, &m, err, sizeof err),
                      "%s: %s", forms[i], err);
        notation_move(&m, MOVE_FMT_UCI, text, sizeof text);
        ck_assert_str_eq(text, "c3e5c7");
    }
    // Hub form: from, to, then the captured squares in any order; and the a1 numbering.
    ck_assert(notation_parse_move(&b, "22x6x18x10", MOVE_FMT_HUB, &m, err, sizeof err));
    ck_assert_uint_eq(m.to, 5);
    ck_assert(notation_parse_move(&b, "10x26x14x22", MOVE_FMT_HUB_A1, &m, err, sizeof err));
    ck_assert_uint_eq(m.to, 5);
    // Any route of a move with several routes names it (c3 or d4 before e5).
    test_fen("W:WK29:B1,15,25", &b);
    ck_assert(notation_parse_move(&b, "a1:c3:g7", MOVE_FMT_ALG, &m, err, sizeof err));
    ck_assert(notation_parse_move(&b, "a1:d4:g7", MOVE_FMT_ALG, &m, err, sizeof err));
}
END_TEST

START_TEST(test_move_round_trip_random_games)
{
    // Every legal move, printed in each format, reads back as the same move.
    static const MoveFormat fmts[] = {MOVE_FMT_UCI, MOVE_FMT_ALG, MOVE_FMT_NUMERIC, MOVE_FMT_HUB,
                                      MOVE_FMT_HUB_A1};
    uint64_t seed = 4242;
    for (int game = 0; game < 60; game++) {
        Board b;
        board_start(&b);
        for (int ply = 0; ply < 150; ply++) {
            MoveList list;
            int n = movegen_all(&b, &list);
            if (n == 0)
                break;
            for (int i = 0; i < n; i++)
                for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
                    char text[MOVE_TEXT_MAX], err[128];
                    Move back;
                    notation_move(&list.moves[i], fmts[f], text, sizeof text);
                    MoveFormat in = fmts[f] == MOVE_FMT_HUB_A1 ? MOVE_FMT_HUB_A1
                                    : fmts[f] == MOVE_FMT_HUB  ? MOVE_FMT_HUB
                                                               : MOVE_FMT_ALG;
                    ck_assert_msg(notation_parse_move(&b, text, in, &back, err, sizeof err),
                                  "%s: %s", text, err);
                    ck_assert(back.from == list.moves[i].from && back.to == list.moves[i].to &&
                              back.captured == list.moves[i].captured);
                }
            board_play(&b, &list.moves[test_rand(&seed) % (uint64_t)n]);
        }
    }
}
END_TEST

// A random position rich in captures: 3-10 pieces a side, about 40 % kings (men on their
// promotion rank become kings), either side to move; false when the side to move cannot capture.
static bool random_capture_position(uint64_t *seed, Board *b)
{
    uint32_t side_sq[2] = {0, 0}, kings = 0, used = 0;
    for (int side = 0; side < 2; side++) {
        int count = 3 + (int)(test_rand(seed) % 8);
        while (count > 0) {
            int s = (int)(test_rand(seed) % SQUARE_COUNT);
            if (used & (1u << s))
                continue;
            used |= 1u << s;
            side_sq[side] |= 1u << s;
            bool last_rank = side == SIDE_WHITE ? s < 4 : s >= 28;
            if (last_rank || test_rand(seed) % 10 < 4)
                kings |= 1u << s;
            count--;
        }
    }
    Side stm = (Side)(test_rand(seed) & 1);
    return board_set_squares(b, side_sq[0], side_sq[1], kings, stm) && movegen_has_capture(b);
}

START_TEST(test_move_round_trip_captures)
{
    // Rule: every move text Damka prints reads back as that move. In positions rich in
    // captures (long king captures beside short ones ending on the same square) the printed
    // route names its own move, never "ambiguous".
    static const MoveFormat fmts[] = {MOVE_FMT_UCI, MOVE_FMT_ALG, MOVE_FMT_NUMERIC, MOVE_FMT_HUB,
                                      MOVE_FMT_HUB_A1};
    uint64_t seed = 777;
    int positions = 0, moves = 0;
    while (positions < 5000) {
        Board b;
        if (!random_capture_position(&seed, &b))
            continue;
        positions++;
        MoveList list;
        int n = movegen_all(&b, &list);
        for (int i = 0; i < n; i++, moves++)
            for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
                char text[MOVE_TEXT_MAX], err[128], fen[FEN_MAX];
                Move back;
                notation_move(&list.moves[i], fmts[f], text, sizeof text);
                MoveFormat in =
                    fmts[f] == MOVE_FMT_UCI || fmts[f] == MOVE_FMT_NUMERIC ? MOVE_FMT_ALG : fmts[f];
                notation_fen(&b, fen, sizeof fen);
                ck_assert_msg(notation_parse_move(&b, text, in, &back, err, sizeof err),
                              "%s in %s: %s", text, fen, err);
                ck_assert_msg(back.from == list.moves[i].from && back.to == list.moves[i].to &&
                                  back.captured == list.moves[i].captured &&
                                  back.flags == list.moves[i].flags,
                              "%s in %s read as another move", text, fen);
            }
    }
    ck_assert_int_gt(moves, positions); // the sample has positions with several captures
}
END_TEST

START_TEST(test_move_short_capture_beside_long)
{
    // f6h4 (one piece) and f6d4b6d8h4 (four pieces) share both ends: the two-square text is
    // the short capture's whole route and names it; the long one is named by its route.
    Board b;
    Move m;
    char err[128], text[MOVE_TEXT_MAX];
    test_fen("W:Wf6:Bh6,e5,g5,b4,c7,c5", &b);
    ck_assert_msg(notation_parse_move(&b, "f6h4", MOVE_FMT_ALG, &m, err, sizeof err), "%s", err);
    ck_assert_int_eq(bb_count(m.captured), 1);
    ck_assert_msg(notation_parse_move(&b, "f6:h4", MOVE_FMT_ALG, &m, err, sizeof err), "%s", err);
    ck_assert_int_eq(bb_count(m.captured), 1);
    ck_assert(notation_parse_move(&b, "f6d4b6d8h4", MOVE_FMT_ALG, &m, err, sizeof err));
    ck_assert_int_eq(bb_count(m.captured), 4);
    notation_move(&m, MOVE_FMT_ALG, text, sizeof text);
    ck_assert_str_eq(text, "f6:d4:b6:d8:h4");
}
END_TEST

// Move strings refused in the start position (or the position given), each with a reason.
static const struct {
    const char *fen, *text, *reason;
} BAD_MOVES[] = {
    {"W:W21-32:B1-12", "", "malformed"},
    {"W:W21-32:B1-12", "c3", "malformed"},
    {"W:W21-32:B1-12", "c3-", "malformed"},
    {"W:W21-32:B1-12", "c3-d5", "malformed"}, // light square
    {"W:W21-32:B1-12", "c3-e5", "illegal"},   // too far
    {"W:W21-32:B1-12", "d4-e5", "illegal"},   // no piece
    {"W:W21-32:B1-12", "f6-g5", "illegal"},   // opponent's piece
    {"W:W21-32:B1-12", "c3-b2", "illegal"},   // occupied / backward
    {"W:W21-32:B1-12", "22-33", "malformed"},
    {"W:W21-32:B1-12", "0-1", "malformed"},
    {"W:W21-32:B1-12", "c3d4e5f6g7h8a1b2c1d2e3f4g5h6a7b8", "malformed"}, // too many squares
    {"W:W21-32:B1-12", "c3--d4", "malformed"},
    {"W:W21-32:B1-12", "c3 d4", "malformed"},
    {"W:W21-32:B1-12", "\xff\xfe", "malformed"},
    {"W:W22:B10,18,19", "c3-d4", "illegal"},        // quiet move when a capture is compulsory
    {"W:W22:B10,18,19", "c3:e5", "illegal"},        // capture stopped half-way
    {"W:WK29:B19,22,23", "a1:e3", "illegal"},       // not a landing square
    {"W:WK20:B5,9,11,14,22", "h4:e1", "ambiguous"}, // two captures from h4 to e1
};

START_TEST(test_move_malformed)
{
    Board b, before;
    Move m;
    memset(&m, 0, sizeof m);
    Move untouched = m;
    char err[128] = "";
    test_fen(BAD_MOVES[_i].fen, &b);
    before = b;
    ck_assert_msg(!notation_parse_move(&b, BAD_MOVES[_i].text, MOVE_FMT_ALG, &m, err, sizeof err),
                  "accepted '%s'", BAD_MOVES[_i].text);
    ck_assert_msg(strstr(err, BAD_MOVES[_i].reason) != NULL, "'%s': %s", BAD_MOVES[_i].text, err);
    ck_assert(board_equal(&b, &before));
    ck_assert(memcmp(&m, &untouched, sizeof m) == 0);
}
END_TEST

START_TEST(test_move_ambiguous)
{
    // The king on h4 reaches e1 by two captures that take different pieces (landing on e7 then
    // b4, or on d8 then a5): "h4:e1" names two moves and is refused.
    Board b, before;
    Move m;
    char err[128] = "";
    test_fen("W:WK20:B5,9,11,14,22", &b);
    before = b;
    ck_assert(!notation_parse_move(&b, "h4:e1", MOVE_FMT_ALG, &m, err, sizeof err));
    ck_assert_msg(strstr(err, "ambiguous") != NULL, "%s", err);
    ck_assert(board_equal(&b, &before));
    ck_assert(notation_parse_move(&b, "h4:e7:b4:e1", MOVE_FMT_ALG, &m, err, sizeof err));
    ck_assert(notation_parse_move(&b, "h4:d8:a5:e1", MOVE_FMT_ALG, &m, err, sizeof err));
}
END_TEST

Suite *suite_notation(void)
{
    Suite *s = suite_create("notation");
    TCase *tc = tcase_create("fen-and-moves");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_fen_start_forms);
    tcase_add_test(tc, test_fen_kings_and_round_trip);
    tcase_add_test(tc, test_fen_round_trip_random_games);
    tcase_add_loop_test(tc, test_fen_malformed, 0, (int)(sizeof BAD_FENS / sizeof BAD_FENS[0]));
    tcase_add_test(tc, test_hub_pos_malformed);
    tcase_add_test(tc, test_move_output_formats);
    tcase_add_test(tc, test_move_input_forms);
    tcase_add_test(tc, test_move_round_trip_random_games);
    tcase_add_test(tc, test_move_round_trip_captures);
    tcase_add_test(tc, test_move_short_capture_beside_long);
    tcase_add_loop_test(tc, test_move_malformed, 0, (int)(sizeof BAD_MOVES / sizeof BAD_MOVES[0]));
    tcase_add_test(tc, test_move_ambiguous);
    suite_add_tcase(s, tc);
    return s;
}
