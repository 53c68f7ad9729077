// SPDX-License-Identifier: MIT
// Owns the text protocol front end.
#include "protocol.h"

#include <stdio.h>

int proto_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    printf("info string error: protocol not built yet\n");
    return 2;
}
