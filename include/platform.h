// SPDX-License-Identifier: MIT
// What the engine needs of the operating system beyond C11 and pthreads, behind one small set of
// calls with a POSIX and a Windows body (src/platform.c, the only file with either): large
// zeroed memory, aligned memory, files read at an offset from several threads, the folder of
// the running program or library, and the standard streams.
#ifndef PLATFORM_H_INCLUDED
#define PLATFORM_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// A large zeroed block of memory (the transposition table), its start aligned to `align` (a
// power of two): pages the system commits when first touched, huge pages where it has them.
// Returns NULL on failure; *raw and *raw_bytes are what platform_free_large takes back.
void *platform_alloc_large(size_t bytes, size_t align, void **raw, size_t *raw_bytes);
void platform_free_large(void *raw, size_t raw_bytes);

// Physical memory in MB, 0 when unknown.
size_t platform_physical_mb(void);

// Memory aligned to `align` (a power of two, at least sizeof(void *)); NULL on failure. Freed
// with platform_aligned_free.
void *platform_aligned_alloc(size_t align, size_t bytes);
void platform_aligned_free(void *p);

// A file opened for reading at any offset, from several threads at once.
typedef struct PlatformFile {
    intptr_t handle; // -1: not open
} PlatformFile;

// Opens path; *size gets its length. False (f not open) when it cannot be read.
bool platform_open_read(const char *path, PlatformFile *f, uint64_t *size);
// Reads exactly n bytes at offset; false when fewer could be read.
bool platform_read_at(PlatformFile f, void *buf, size_t n, uint64_t offset);
void platform_close(PlatformFile *f);

// True when path names a file or folder that can be read.
bool platform_is_readable(const char *path);

// The folder of the program running, or of the library (DLL) that holds the engine when it
// runs inside another program. False when it cannot be told.
bool platform_module_dir(char *out, size_t len);

// Standard input is a terminal (a person types).
bool platform_stdin_is_terminal(void);

// Standard input and output carry lines ending in a bare '\n' (no text-mode translation).
void platform_binary_stdio(void);

// Lets another thread run.
void platform_yield(void);

#endif
