// SPDX-License-Identifier: MIT
// Owns the engine of the library interfaces and their one search at a time.
#include "plugin.h"

#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER; // the engine's creation and game
static Engine *g_engine;
// How often a search running for a host looks at its "play now" flag: CheckerBoard's API
// lets the GUI set it at any time, and a GUI expects the move within a tenth of a second.
enum { PLAYNOW_POLL_MS = 2 };

Engine *plugin_engine(void)
{
    pthread_mutex_lock(&g_lock);
    if (!g_engine) {
        g_engine = engine_new();
        if (g_engine)
            engine_set_hash(g_engine, PLUGIN_HASH_DEFAULT);
    }
    Engine *e = g_engine;
    pthread_mutex_unlock(&g_lock);
    return e;
}

void plugin_free(void)
{
    pthread_mutex_lock(&g_lock);
    engine_free(g_engine);
    g_engine = NULL;
    pthread_mutex_unlock(&g_lock);
}

bool plugin_search(const EngineGo *go, EngineInfoFn on_info, void *ctx, const volatile int *playnow,
                   EngineResult *out)
{
    Engine *e = plugin_engine();
    if (!e || !engine_go(e, go, on_info, NULL, ctx))
        return false;
    // The host writes the flag from its own thread whenever it likes (an int of its API): read
    // it as the relaxed atomic load it is on every processor the GUIs run on.
    while (!engine_wait_ms(e, PLAYNOW_POLL_MS))
        if (playnow && __atomic_load_n(playnow, __ATOMIC_RELAXED))
            engine_stop(e);
    engine_result(e, out);
    return out->has_best;
}

bool plugin_search_background(const EngineGo *go, EngineInfoFn on_info, void *ctx)
{
    Engine *e = plugin_engine();
    return e && engine_go(e, go, on_info, NULL, ctx);
}

void plugin_stop(void)
{
    pthread_mutex_lock(&g_lock);
    Engine *e = g_engine;
    pthread_mutex_unlock(&g_lock);
    if (e)
        engine_stop(e);
}
