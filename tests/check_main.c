// SPDX-License-Identifier: MIT
// Test runner: every Check suite of the project in one SRunner.
#include <stdlib.h>

#include "engine.h"
#include "test_suites.h"

int main(void)
{
    engine_library_init();
    SRunner *sr = srunner_create(suite_movegen());
    srunner_add_suite(sr, suite_rules_capture());
    srunner_add_suite(sr, suite_notation());
    srunner_add_suite(sr, suite_engine());
    srunner_add_suite(sr, suite_match());
    srunner_add_suite(sr, suite_protocol());
    srunner_add_suite(sr, suite_gui());
    srunner_add_suite(sr, suite_egdb());
    srunner_add_suite(sr, suite_eval());
    srunner_add_suite(sr, suite_plugins());
    srunner_add_suite(sr, suite_book());
    srunner_add_suite(sr, suite_net());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
