// SPDX-License-Identifier: MIT
// Command-line counts of the data tools (see args.h).
#include "args.h"

#include <ctype.h>
#include <stdlib.h>

size_t args_count(const char *v, char **end)
{
    while (isspace((unsigned char)*v))
        v++;
    if (*v == '-') {
        *end = (char *)v;
        return 0;
    }
    return strtoull(v, end, 10);
}
