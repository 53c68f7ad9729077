// SPDX-License-Identifier: MIT
// The engine inside another program: what the library interfaces (CheckerBoard's, cb.c, and
// Kallisto's, ei.c) share. One engine for the whole library, made on first use; one search at
// a time, run on the caller's thread until it ends, is stopped from another thread, or a flag
// of the host's asks for the move now. The interfaces never print.
#ifndef PLUGIN_H_INCLUDED
#define PLUGIN_H_INCLUDED

#include "engine.h"

// How the interfaces are exported: from a Windows DLL with the calling convention of the
// GUIs (stdcall, which 64-bit Windows ignores), elsewhere as plain C for the tests.
#ifdef _WIN32
#define PLUGIN_EXPORT __declspec(dllexport)
#define PLUGIN_CALL __stdcall
#else
#define PLUGIN_EXPORT __attribute__((visibility("default")))
#define PLUGIN_CALL
#endif

enum { PLUGIN_HASH_DEFAULT = 64 }; // MB, until the host says

// The library's engine (NULL when out of memory). Its databases are those beside the library.
Engine *plugin_engine(void);

// Frees the engine (the host unloads the library); plugin_engine makes a new one.
void plugin_free(void);

// Searches the engine's game as go asks, reporting through on_info (may be NULL), until the
// search ends, plugin_stop is called, or *playnow (if not NULL) turns non-zero. False when the
// side to move has no legal move; else *out holds the result.
bool plugin_search(const EngineGo *go, EngineInfoFn on_info, void *ctx, const volatile int *playnow,
                   EngineResult *out);

// Ends the running search (from any thread): plugin_search returns with the move found.
void plugin_stop(void);

// Starts a search that goes on in the background until plugin_stop (pondering); false when
// there is no legal move.
bool plugin_search_background(const EngineGo *go, EngineInfoFn on_info, void *ctx);

#endif
