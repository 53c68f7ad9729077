// SPDX-License-Identifier: MIT
// libFuzzer harness for the protocol line handler: the input is a session of lines in either
// dialect. Any crash, sanitizer report or hang is a bug. Searches are stopped after each input;
// lines that only cost time (bench, perft, big Hash, tt-size or Threads values) are skipped.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "hub.h"
#include "protocol.h"
#include "uci.h"

static bool slow_line(const char *line)
{
    return strstr(line, "bench") || strstr(line, "perft") || strstr(line, "ash") ||
           strstr(line, "hreads") || strstr(line, "tt-size");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Engine *engine;
    static FILE *out;
    if (!engine) {
        engine = engine_new();
        if (!engine || !engine_set_hash(engine, 1))
            abort();
        out = fopen("/dev/null", "w");
    }
    const ProtoDialect *dialects[2] = {uci_dialect(), hub_dialect()};
    Proto p;
    proto_init(&p, engine, NULL, out, dialects, NULL);
    char line[PROTO_LINE_MAX + 1];
    size_t i = 0;
    while (i < size) {
        size_t n = 0;
        while (i < size && data[i] != '\n' && n < PROTO_LINE_MAX)
            line[n++] = (char)data[i++];
        while (i < size && data[i] != '\n') // the reader refuses over-long lines whole
            i++;
        i++;
        line[n] = '\0';
        if (memchr(line, '\0', n) || slow_line(line))
            continue;
        if (!proto_handle_line(&p, line))
            break;
    }
    proto_stop_search(&p);
    engine_new_game(engine);
    proto_free(&p);
    return 0;
}
