// SPDX-License-Identifier: MIT
// Owns the bytes of the built-in evaluation weights: the file the build names in
// EVAL_WEIGHTS_FILE (weights/eval-<hash>.bin), included as it is by the assembler and read by
// eval.c with the loader of EvalFile, checksum and all.
#include "eval.h"

#ifndef EVAL_WEIGHTS_FILE
#error "EVAL_WEIGHTS_FILE must name the built-in weights file (the Makefile sets it)"
#endif

// Symbols as the C compiler names them (a leading underscore on 32-bit Windows).
#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)
#define SYMBOL(name) STRINGIFY(__USER_LABEL_PREFIX__) #name

#if defined(_WIN32)
#define READ_ONLY_SECTION ".section .rdata,\"dr\"\n"
#else
#define READ_ONLY_SECTION ".section .rodata\n"
#endif

__asm__(READ_ONLY_SECTION
        ".balign 16\n"
        ".globl " SYMBOL(g_eval_builtin_bytes) "\n" SYMBOL(
            g_eval_builtin_bytes) ":\n"
                                  ".incbin \"" EVAL_WEIGHTS_FILE "\"\n"
                                  ".globl " SYMBOL(g_eval_builtin_end) "\n" SYMBOL(
                                      g_eval_builtin_end) ":\n"
                                                          ".text\n");
