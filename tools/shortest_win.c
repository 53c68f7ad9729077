// SPDX-License-Identifier: MIT
// How far the engine's moves in won endings stray from the shortest win. An exact solver of its
// own, independent of the endgame databases: from each sample position it lists every position
// reachable by legal play (a few hundred thousand at most for 4 pieces), then solves them
// backwards from the positions with no legal move, so that each gets its distance in plies to
// the end of the game with best play (the draw counters of 7.2 and repetition left out, as in
// the positions of a fresh game they rarely bind on the shortest line). The engine then plays
// one move from each won sample at a fixed time, and the move's extra plies are
// (distance after it + 1) - (distance before it).
// Usage: damka-shortest EGDB_DIR [POSITIONS] [MOVETIME_MS] [SEED] [PIECES]
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "notation.h"
#include "util.h"

enum { RESULT_UNKNOWN = 0, RESULT_WIN = 1, RESULT_LOSS = 2 };

typedef struct Node {
    Board board;
    int first_child, nchildren; // children in Graph.edges
    int left;                   // children not yet known to be wins for the side to move there
    int result, dist;
} Node;

typedef struct Graph {
    Node *nodes;
    int n, cap;
    int *edges, nedges, edges_cap;
    int *slots; // open-addressing table of node indices by key (-1 empty)
    size_t nslots;
} Graph;

static void *grow(void *p, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return p;
    int c = *cap ? *cap : 1024;
    while (c < need)
        c *= 2;
    void *q = realloc(p, (size_t)c * size);
    if (!q) {
        fprintf(stderr, "damka-shortest: out of memory\n");
        exit(1);
    }
    *cap = c;
    return q;
}

// The node of b, added when new; *added tells which.
static int node_of(Graph *g, const Board *b, bool *added)
{
    size_t i = b->key & (g->nslots - 1);
    while (g->slots[i] >= 0) {
        if (board_equal(&g->nodes[g->slots[i]].board, b)) {
            *added = false;
            return g->slots[i];
        }
        i = (i + 1) & (g->nslots - 1);
    }
    if ((size_t)g->n * 2 >= g->nslots) {
        fprintf(stderr, "damka-shortest: more positions than the table holds\n");
        exit(1);
    }
    g->nodes = grow(g->nodes, &g->cap, g->n + 1, sizeof(Node));
    g->nodes[g->n] = (Node){.board = *b};
    g->slots[i] = g->n;
    *added = true;
    return g->n++;
}

// Every position reachable from root, each with its children (breadth first).
static void expand(Graph *g, const Board *root)
{
    bool added;
    node_of(g, root, &added);
    for (int x = 0; x < g->n; x++) {
        MoveList list;
        int n = engine_moves_of(&g->nodes[x].board, &list);
        g->edges = grow(g->edges, &g->edges_cap, g->nedges + n, sizeof(int));
        int first = g->nedges;
        for (int i = 0; i < n; i++) {
            Board child = g->nodes[x].board;
            board_play(&child, &list.moves[i]);
            g->edges[g->nedges++] = node_of(g, &child, &added);
        }
        g->nodes[x].first_child = first;
        g->nodes[x].nchildren = n;
        g->nodes[x].left = n;
    }
}

// Retrograde solution: positions with no move are lost in 0; a position with a child lost in
// d is won in d + 1 (the first such d found, as distances are settled in increasing order); a
// position all of whose children are won is lost in 1 + the largest of their distances.
static void solve(Graph *g)
{
    int *parent_count = calloc((size_t)g->n + 1, sizeof(int));
    int *parents = malloc(((size_t)g->nedges + 1) * sizeof(int));
    int *queue = malloc(((size_t)g->n + 1) * sizeof(int));
    if (!parent_count || !parents || !queue) {
        fprintf(stderr, "damka-shortest: out of memory\n");
        exit(1);
    }
    for (int e = 0; e < g->nedges; e++)
        parent_count[g->edges[e] + 1]++;
    for (int x = 0; x < g->n; x++)
        parent_count[x + 1] += parent_count[x];
    int *fill = calloc((size_t)g->n, sizeof(int));
    for (int x = 0; x < g->n; x++)
        for (int k = 0; k < g->nodes[x].nchildren; k++) {
            int c = g->edges[g->nodes[x].first_child + k];
            parents[parent_count[c] + fill[c]++] = x;
        }
    int head = 0, tail = 0;
    for (int x = 0; x < g->n; x++)
        if (g->nodes[x].nchildren == 0) {
            g->nodes[x].result = RESULT_LOSS;
            queue[tail++] = x;
        }
    while (head < tail) {
        int x = queue[head++];
        const Node *nx = &g->nodes[x];
        for (int k = parent_count[x]; k < parent_count[x + 1]; k++) {
            Node *p = &g->nodes[parents[k]];
            if (p->result != RESULT_UNKNOWN)
                continue;
            if (nx->result == RESULT_LOSS) {
                p->result = RESULT_WIN;
                p->dist = nx->dist + 1;
                queue[tail++] = parents[k];
            } else if (--p->left == 0) {
                p->result = RESULT_LOSS;
                p->dist = nx->dist + 1;
                queue[tail++] = parents[k];
            }
        }
    }
    free(fill);
    free(queue);
    free(parents);
    free(parent_count);
}

// A random position of `pieces` pieces (at least one a side, about half of them kings).
static bool random_position(uint64_t *seed, int pieces, Board *b)
{
    uint32_t side_sq[2] = {0, 0}, kings = 0, used = 0;
    int white = 1 + (int)(util_random(seed) % (uint64_t)(pieces - 1));
    for (int i = 0; i < pieces; i++) {
        int s = (int)(util_random(seed) % 32);
        if (used & (1u << s))
            return false;
        used |= 1u << s;
        side_sq[i < white ? 0 : 1] |= 1u << s;
        if (util_random(seed) & 1)
            kings |= 1u << s;
    }
    return board_set_squares(b, side_sq[0], side_sq[1], kings, (Side)(util_random(seed) & 1));
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0) {
        printf("usage: damka-shortest EGDB_DIR [POSITIONS] [MOVETIME_MS] [SEED] [PIECES]\n");
        return argc < 2 ? 2 : 0;
    }
    int positions = argc > 2 ? atoi(argv[2]) : 100, movetime = argc > 3 ? atoi(argv[3]) : 100;
    uint64_t seed = argc > 4 ? strtoull(argv[4], NULL, 10) : 1;
    int max_pieces = argc > 5 ? atoi(argv[5]) : 4;
    if (positions < 1 || movetime < 1 || seed == 0 || max_pieces < 3 || max_pieces > 4) {
        fprintf(stderr, "damka-shortest: bad arguments (see --help)\n");
        return 2;
    }
    engine_library_init();
    Engine *e = engine_new();
    char err[ENGINE_ERR_MAX];
    if (!e || !engine_set_egdb_path(e, argv[1], err, sizeof err)) {
        fprintf(stderr, "damka-shortest: %s\n", e ? err : "out of memory");
        return 1;
    }
    Graph g = {.nslots = (size_t)1 << 23};
    g.slots = malloc(g.nslots * sizeof(int));
    if (!g.slots)
        return 1;
    int done = 0, worst = 0, thrown = 0;
    long extra_sum = 0;
    int histogram[8] = {0};
    while (done < positions) {
        Board root;
        int pieces = 3 + (int)(util_random(&seed) % (uint64_t)(max_pieces - 2));
        if (!random_position(&seed, pieces, &root) || engine_moves_of(&root, &(MoveList){0}) < 2)
            continue;
        memset(g.slots, 0xff, g.nslots * sizeof(int));
        g.n = g.nedges = 0;
        expand(&g, &root);
        solve(&g);
        const Node *r = &g.nodes[0];
        if (r->result != RESULT_WIN || r->dist < 3)
            continue; // won positions only, and not a single capture that ends the game
        char fen[FEN_MAX];
        notation_fen(&root, fen, sizeof fen);
        engine_new_game(e);
        if (!engine_set_position(e, fen, NULL, 0, MOVE_FMT_UCI, err, sizeof err))
            return 1;
        EngineGo go;
        engine_go_depth(&go, 0);
        go.analysis = false;
        go.time.movetime_ms = movetime;
        go.time.has_clock = false;
        if (!engine_go(e, &go, NULL, NULL, NULL))
            return 1;
        engine_wait(e);
        EngineResult res;
        engine_result(e, &res);
        int child = -1;
        for (int k = 0; k < r->nchildren && child < 0; k++) {
            Board after = root;
            board_play(&after, &res.best);
            const Node *c = &g.nodes[g.edges[r->first_child + k]];
            if (board_equal(&c->board, &after))
                child = g.edges[r->first_child + k];
        }
        const Node *c = &g.nodes[child];
        char move[MOVE_TEXT_MAX];
        notation_move(&res.best, MOVE_FMT_ALG, move, sizeof move);
        done++;
        if (c->result != RESULT_LOSS) {
            thrown++;
            printf("%s: win in %d, %s throws it away\n", fen, r->dist, move);
            continue;
        }
        int extra = c->dist + 1 - r->dist;
        extra_sum += extra;
        worst = extra > worst ? extra : worst;
        histogram[extra / 2 < 7 ? extra / 2 : 7]++;
        if (extra > 0)
            printf("%s: win in %d, %s wins in %d (+%d)\n", fen, r->dist, move, c->dist + 1, extra);
    }
    printf("positions %d (3-%d pieces, won, at least 3 plies), movetime %d ms, seed %s\n", done,
           max_pieces, movetime, argc > 4 ? argv[4] : "1");
    printf("extra plies: mean %.3f, max %d; wins thrown away: %d\n",
           (double)extra_sum / (done - thrown > 0 ? done - thrown : 1), worst, thrown);
    printf("extra plies 0: %d, 2: %d, 4: %d, 6: %d, 8 or more: %d\n", histogram[0], histogram[1],
           histogram[2], histogram[3], histogram[4] + histogram[5] + histogram[6] + histogram[7]);
    engine_free(e);
    free(g.slots);
    free(g.nodes);
    free(g.edges);
    return 0;
}
