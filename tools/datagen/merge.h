// SPDX-License-Identifier: MIT
// damka-datagen --merge OUT FILE...: record files into one, each position once (merge.c).
#ifndef MERGE_H_INCLUDED
#define MERGE_H_INCLUDED

// Returns the process's exit status (0, or 1 after an error line on stderr).
int datagen_merge(const char *out, const char *const *in, int n);

#endif
