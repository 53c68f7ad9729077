// SPDX-License-Identifier: MIT
// Command-line counts of the data tools (damka-datagen, damka-train).
#ifndef ARGS_H_INCLUDED
#define ARGS_H_INCLUDED

#include <stddef.h>

// A count in decimal: as strtoull, but a minus sign (which strtoull would wrap to a huge count)
// leaves *end on it, so that the caller's "nothing may follow" check refuses the argument.
size_t args_count(const char *v, char **end);

#endif
