// SPDX-License-Identifier: MIT
// The Check suites of the test runner, one per area of the engine and its tools, and the
// helpers they share.
#ifndef TEST_SUITES_H_INCLUDED
#define TEST_SUITES_H_INCLUDED

#include <check.h>

#include "types.h"

Suite *suite_movegen(void);
Suite *suite_rules_capture(void);
Suite *suite_notation(void);
Suite *suite_engine(void);
Suite *suite_match(void);
Suite *suite_protocol(void);
Suite *suite_gui(void);
Suite *suite_egdb(void);
Suite *suite_eval(void);
Suite *suite_plugins(void);
Suite *suite_book(void);
Suite *suite_net(void);

// Parses a FEN that the test knows is valid (fails the test otherwise).
void test_fen(const char *fen, Board *out);

// Small deterministic generator for random games in tests.
uint64_t test_rand(uint64_t *state);

#endif
