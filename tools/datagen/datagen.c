// SPDX-License-Identifier: MIT
// damka-datagen: self-play training data through the engine library (no pipes), one engine a
// thread. Each game starts from an opening of the shipped set (game g takes opening g mod n)
// and a few random plies drawn from the game's own seed, then the engine plays both sides at a
// node budget that varies by up to --jitter percent a move (from the same seed). Every quiet
// position (no capture pending for either side; with --threatened 1 also one where only the
// side not to move has a capture, as the search's leaves often are) is kept with the search's
// score and, once the game is over, its result; a position seen before (any game, any thread,
// any earlier run on the same file) is not written again.
//
// With --pdn FILE the games are not played but read: each game of FILE (a PDN of finished
// games, such as damka-match writes) is replayed move by move, every quiet position of it is
// searched at the node budget for its score, and the result is the game's (games without a
// result are skipped). So positions and results can come from play at longer controls than
// the labels' searches.
//
// With --egdb DIR the engines search with the endgame databases of DIR: endings within them
// are played out without error, so the results of the games that reach them are those of the
// positions, and the scores of positions a few captures from them are exact.
//
// Records (tools/datagen/record.h, 16 bytes each) are appended to FILE.
// A run is resumable: FILE.progress holds the number of games done; the positions of FILE are
// read back into the set of positions seen, and the next game is the one after.
//
// Under MPI (make damka-datagen-mpi; mpirun -np N): rank r runs seed + r into FILE.rank<r>,
// and rank 0 merges the ranks' files into FILE (--merge) once every rank is done.
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "cluster.h"
#include "engine.h"
#include "match.h"
#include "merge.h"
#include "record.h"
#include "util.h"

enum {
    GAME_PLIES_MAX = 400, // a game this long is scored a draw
    OPENINGS_MAX = 4096,
    OPENING_LINE = 256, // an opening's line, as read from the file
    THREADS_MAX = 64,
    SEEN_LOG2 = 27, // 128 M slots (1 GB): room for ~60 M distinct positions
};

typedef struct Config {
    long games;
    int threads;
    uint64_t nodes;
    int random_plies;
    int jitter;     // percent the node budget of a move varies by
    int threatened; // 1: keep positions where only the opponent can capture, too
    uint64_t seed;
    const char *out;
    const char *eval_file; // weights the engines play with (NULL: the built-in ones)
    const char *pdn;       // games to replay instead of playing (NULL: self-play)
    const char *egdb;      // endgame databases the searches probe (NULL: none)
    bool games_given;      // --games was set (with --pdn, the default is every game)
    char openings[OPENINGS_MAX][OPENING_LINE];
    int nopenings;
} Config;

// The games of --pdn: game g starts at starts[g], plays nmoves[g] moves from moves +
// first[g], and ended results[g] (+1 White won, -1 Black won, 0 draw).
typedef struct PdnSet {
    Board *starts;
    Move *moves;
    size_t *first;
    int *nmoves;
    int8_t *results;
    long count;
    long skipped; // games without a result, or that did not read
} PdnSet;

typedef struct Shared {
    Config *cfg;
    PdnSet pdn;
    _Atomic long next_game;
    _Atomic long games_done;
    _Atomic uint64_t written;
    _Atomic uint64_t duplicates;
    atomic_bool failed;     // a thread could not set up its engine
    _Atomic uint64_t *seen; // open addressing set of position keys (0 = empty)
    pthread_mutex_t out_mu;
    FILE *out;
    double t0;
} Shared;

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33, x *= 0xFF51AFD7ED558CCDULL, x ^= x >> 33, x *= 0xC4CEB9FE1A85EC53ULL;
    return x ^ (x >> 33);
}

// Adds key to the set; false when it was there already.
static bool first_time(Shared *sh, uint64_t key)
{
    key |= 1; // never 0
    uint64_t mask = (UINT64_C(1) << SEEN_LOG2) - 1;
    for (uint64_t i = mix(key) & mask;; i = (i + 1) & mask) {
        uint64_t cur = atomic_load_explicit(&sh->seen[i], memory_order_relaxed);
        if (cur == key)
            return false;
        if (cur == 0) {
            if (atomic_compare_exchange_strong_explicit(&sh->seen[i], &cur, key,
                                                        memory_order_relaxed, memory_order_relaxed))
                return true;
            if (cur == key)
                return false;
        }
    }
}

typedef struct Sample {
    Board board;
    int score;
} Sample;

// Searches the engine's position at the node budget, which varies by up to --jitter percent a
// move (drawn from the game's seed, *rng): two games from the same start part ways instead of
// replaying each other. False when the search gave no move.
static bool search_position(const Config *c, Engine *e, uint64_t *rng, EngineResult *res)
{
    EngineGo go;
    memset(&go, 0, sizeof go);
    *rng = mix(*rng);
    int64_t spread = (int64_t)c->nodes * c->jitter / 100;
    int64_t offset = spread ? (int64_t)(*rng % (uint64_t)(2 * spread + 1)) - spread : 0;
    go.nodes = (uint64_t)((int64_t)c->nodes + offset);
    go.analysis = true; // no instant single-move replies: every position gets a score
    if (!engine_go(e, &go, NULL, NULL, NULL))
        return false;
    engine_wait(e);
    engine_result(e, res);
    return res->has_best;
}

// Whether b is one of the positions kept: quiet, or with --threatened 1 without a capture for
// the side to move.
static bool is_kept(const Config *c, const Board *b)
{
    return c->threatened ? !engine_must_capture(b) : engine_is_quiet(b);
}

// Keeps the engine's position with the search's score if it is one of the positions kept.
static void keep_sample(const Config *c, const Engine *e, const EngineResult *res, Sample *samples,
                        int *nsamples)
{
    const Board *b = engine_board(e);
    if (!is_kept(c, b) || *nsamples >= GAME_PLIES_MAX)
        return;
    int score = !engine_win_plies(res->score) ? res->score
                : res->score > 0              ? RECORD_SCORE_CLAMP
                                              : -RECORD_SCORE_CLAMP;
    samples[*nsamples].board = *b;
    samples[(*nsamples)++].score = score;
}

// Writes a game's samples that were not seen before, with its result.
static void write_samples(Shared *sh, const Sample *samples, int nsamples, int result_white)
{
    uint8_t rec[RECORD_BYTES];
    pthread_mutex_lock(&sh->out_mu);
    for (int i = 0; i < nsamples; i++) {
        const Board *b = &samples[i].board;
        if (!first_time(sh, b->key)) {
            atomic_fetch_add(&sh->duplicates, 1);
            continue;
        }
        int res = b->side == SIDE_WHITE ? result_white : -result_white;
        record_encode(b, res, samples[i].score, rec);
        fwrite(rec, 1, RECORD_BYTES, sh->out);
        atomic_fetch_add(&sh->written, 1);
    }
    pthread_mutex_unlock(&sh->out_mu);
}

// Replays game g of --pdn and writes its quiet positions, scored by the search.
static void replay_game(Shared *sh, Engine *e, long g, Sample *samples)
{
    const PdnSet *p = &sh->pdn;
    char fen[256], err[ENGINE_ERR_MAX];
    notation_fen(&p->starts[g], fen, sizeof fen);
    engine_new_game(e);
    if (!engine_set_position(e, fen, NULL, 0, MOVE_FMT_UCI, err, sizeof err))
        return;
    uint64_t rng = mix(sh->cfg->seed * 1000003u + (uint64_t)g);
    int nsamples = 0;
    const Move *moves = p->moves + p->first[g];
    for (int ply = 0; ply < p->nmoves[g]; ply++) {
        EngineResult res;
        if (is_kept(sh->cfg, engine_board(e)) && nsamples < GAME_PLIES_MAX) {
            if (!search_position(sh->cfg, e, &rng, &res))
                break;
            keep_sample(sh->cfg, e, &res, samples, &nsamples);
        }
        if (!engine_play(e, &moves[ply]))
            break;
    }
    write_samples(sh, samples, nsamples, p->results[g]);
}

// Plays game g and writes its quiet positions that were not seen before.
static void play_game(Shared *sh, Engine *e, long g, Sample *samples)
{
    Config *c = sh->cfg;
    if (c->pdn) {
        replay_game(sh, e, g, samples);
        return;
    }
    char err[ENGINE_ERR_MAX];
    const char *opening = c->openings[g % c->nopenings];
    char line[OPENING_LINE], *words[16];
    snprintf(line, sizeof line, "%s", opening);
    int nw = 0;
    for (char *save = NULL, *t = strtok_r(line, " ", &save); t && nw < 16;
         t = strtok_r(NULL, " ", &save))
        words[nw++] = t;
    engine_new_game(e);
    if (!engine_set_position(e, NULL, (const char *const *)words, nw, MOVE_FMT_UCI, err,
                             sizeof err))
        return;
    uint64_t rng = mix(c->seed * 1000003u + (uint64_t)g);
    for (int i = 0; i < c->random_plies; i++) {
        MoveList list;
        int n = engine_legal_moves(e, &list);
        if (n == 0)
            break;
        rng = mix(rng);
        engine_play(e, &list.moves[rng % (uint64_t)n]);
    }
    int nsamples = 0, result_white = 0; // +1 White won, -1 Black won, 0 draw
    for (int ply = 0;; ply++) {
        GameResult r = engine_game_result(e);
        if (r == GAME_LOSS) {
            result_white = engine_board(e)->side == SIDE_WHITE ? -1 : 1;
            break;
        }
        if (r != GAME_ONGOING || ply >= GAME_PLIES_MAX)
            break;
        EngineResult res;
        if (!search_position(c, e, &rng, &res))
            break;
        keep_sample(c, e, &res, samples, &nsamples);
        if (!engine_play(e, &res.best))
            break;
    }
    write_samples(sh, samples, nsamples, result_white);
}

static void write_progress(Shared *sh)
{
    char path[4200];
    snprintf(path, sizeof path, "%s.progress", sh->cfg->out);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "%ld\n", atomic_load(&sh->games_done));
        fclose(f);
    }
}

static void *worker(void *arg)
{
    Shared *sh = arg;
    Engine *e = engine_new();
    Sample *samples = malloc(GAME_PLIES_MAX * sizeof *samples);
    char err[ENGINE_ERR_MAX];
    // A small table: searches of a few thousand nodes fill a fraction of 1 MB, and each game
    // clears it (with 16 MB the same games took three times as long, bench/RESULTS.md).
    snprintf(err, sizeof err, "cannot set up an engine (out of memory)");
    bool ready = e && samples && engine_set_hash(e, 1);
    if (ready) // no databases unless --egdb names them (not even those beside the binary)
        ready = engine_set_egdb_path(e, sh->cfg->egdb ? sh->cfg->egdb : "", err, sizeof err);
    if (ready && sh->cfg->egdb && engine_egdb_loaded(e) == 0) {
        snprintf(err, sizeof err, "no complete endgame databases in %s", sh->cfg->egdb);
        ready = false;
    }
    if (ready && sh->cfg->eval_file)
        ready = engine_set_eval_file(e, sh->cfg->eval_file, err, sizeof err);
    if (!ready) {
        fprintf(stderr, "damka-datagen: %s\n", err);
        atomic_store(&sh->failed, true);
        engine_free(e);
        free(samples);
        return NULL;
    }
    for (long g; (g = atomic_fetch_add(&sh->next_game, 1)) < sh->cfg->games;) {
        play_game(sh, e, g, samples);
        long done = atomic_fetch_add(&sh->games_done, 1) + 1;
        if (done % 100 == 0) {
            pthread_mutex_lock(&sh->out_mu);
            fflush(sh->out);
            write_progress(sh);
            double dt = util_now_s() - sh->t0;
            fprintf(stderr, "games %ld/%ld, positions %llu (%llu repeated), %.0f positions/s\n",
                    done, sh->cfg->games, (unsigned long long)atomic_load(&sh->written),
                    (unsigned long long)atomic_load(&sh->duplicates),
                    dt > 0 ? (double)atomic_load(&sh->written) / dt : 0.0);
            pthread_mutex_unlock(&sh->out_mu);
        }
    }
    engine_free(e);
    free(samples);
    return NULL;
}

static bool load_openings(Config *c, const char *path)
{
    char found[4200];
    FILE *f = fopen(path, "r");
    if (!f && engine_find_data(path, found, sizeof found))
        f = fopen(found, "r");
    if (!f)
        return false;
    char line[OPENING_LINE];
    while (c->nopenings < OPENINGS_MAX && fgets(line, sizeof line, f)) {
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        size_t n = strlen(line);
        while (n && (line[n - 1] == '\n' || line[n - 1] == ' ' || line[n - 1] == '\r'))
            line[--n] = '\0';
        if (n)
            snprintf(c->openings[c->nopenings++], sizeof c->openings[0], "%s", line);
    }
    fclose(f);
    return c->nopenings > 0;
}

// The result of a PDN game for White (+1, 0, -1), or 2 when it has none.
static int pdn_result(const char *r)
{
    if (strcmp(r, "1-0") == 0 || strcmp(r, "2-0") == 0)
        return 1;
    if (strcmp(r, "0-1") == 0 || strcmp(r, "0-2") == 0)
        return -1;
    if (strcmp(r, "1/2-1/2") == 0 || strcmp(r, "1-1") == 0)
        return 0;
    return 2;
}

// Reads the games of a PDN file into p. False (with a message) when the file cannot be read
// or holds no game with a result; games that do not read are counted and skipped.
static bool load_pdn(PdnSet *p, const char *path)
{
    char err[300];
    char *text = pdn_read_text_file(path, err, sizeof err);
    PdnGame *g = text ? malloc(sizeof *g) : NULL;
    if (!text || !g) {
        fprintf(stderr, "damka-datagen: %s\n", text ? "out of memory" : err);
        free(text);
        return false;
    }
    long gcap = 0;
    size_t mcap = 0, mlen = 0, pos = 0;
    bool ok = true;
    for (int r; ok && (r = pdn_read(text, &pos, g, err, sizeof err)) != 0;) {
        int result = r > 0 ? pdn_result(g->result) : 2;
        if (result == 2) {
            p->skipped++;
            continue;
        }
        if (p->count == gcap) {
            gcap = gcap ? 2 * gcap : 1024;
            Board *s = realloc(p->starts, (size_t)gcap * sizeof *s);
            p->starts = s ? s : p->starts;
            size_t *fi = realloc(p->first, (size_t)gcap * sizeof *fi);
            p->first = fi ? fi : p->first;
            int *nm = realloc(p->nmoves, (size_t)gcap * sizeof *nm);
            p->nmoves = nm ? nm : p->nmoves;
            int8_t *rs = realloc(p->results, (size_t)gcap * sizeof *rs);
            p->results = rs ? rs : p->results;
            ok = s && fi && nm && rs;
        }
        if (ok && mlen + (size_t)g->nmoves > mcap) {
            mcap = 2 * (mlen + (size_t)g->nmoves);
            Move *m = realloc(p->moves, mcap * sizeof *m);
            p->moves = m ? m : p->moves;
            ok = m != NULL;
        }
        if (!ok)
            break;
        p->starts[p->count] = g->start;
        p->first[p->count] = mlen;
        p->nmoves[p->count] = g->nmoves;
        p->results[p->count++] = (int8_t)result;
        memcpy(p->moves + mlen, g->moves, (size_t)g->nmoves * sizeof *g->moves);
        mlen += (size_t)g->nmoves;
    }
    free(text);
    free(g);
    if (!ok)
        fprintf(stderr, "damka-datagen: out of memory reading %s\n", path);
    else if (p->count == 0)
        fprintf(stderr, "damka-datagen: %s holds no finished game\n", path);
    return ok && p->count > 0;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: damka-datagen --out FILE [--games N (1000)] [--threads T (2)] "
            "[--nodes N (2000)]\n"
            "       [--random-plies R (4)] [--jitter PERCENT (25)] [--seed S (1)] [--openings FILE "
            "(openings/4ply-balanced.txt)]\n"
            "       [--eval-file WEIGHTS (the built-in ones)] [--threatened 0|1 (0)] "
            "[--egdb DIR (none)]\n"
            "       [--pdn GAMES.pdn (replay these games instead of playing; --games: "
            "all)]\n"
            "   or: damka-datagen --merge OUT FILE... (the records of the files, each position "
            "once)\n");
}

static int run(Config *c, const char *openings);

int main(int argc, char **argv)
{
    static Config c = {
        .games = 1000, .threads = 2, .nodes = 2000, .random_plies = 4, .seed = 1, .jitter = 25};
    const char *openings = "openings/4ply-balanced.txt";
    util_standard_args(argc, argv, "damka-datagen", DAMKA_VERSION, usage);
    if (!cluster_start(&argc, &argv))
        return 2;
    int rank = cluster_rank(), ranks = cluster_size();
    if (argc >= 2 && strcmp(argv[1], "--merge") == 0) {
        if (argc < 4) {
            usage(stderr);
            return 2;
        }
        return datagen_merge(argv[2], (const char *const *)argv + 3, argc - 3);
    }
    for (int i = 1; i < argc; i += 2) { // every option takes a value
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        errno = 0;
        if (!v) {
            usage(stderr);
            return 2;
        }
        if (strcmp(argv[i], "--out") == 0)
            c.out = v;
        else if (strcmp(argv[i], "--eval-file") == 0)
            c.eval_file = v;
        else if (strcmp(argv[i], "--pdn") == 0)
            c.pdn = v;
        else if (strcmp(argv[i], "--egdb") == 0)
            c.egdb = v;
        else if (strcmp(argv[i], "--openings") == 0)
            openings = v;
        else if (strcmp(argv[i], "--games") == 0)
            c.games = strtol(v, &end, 10), c.games_given = true;
        else if (strcmp(argv[i], "--threads") == 0)
            c.threads = (int)strtol(v, &end, 10);
        else if (strcmp(argv[i], "--nodes") == 0)
            c.nodes = args_count(v, &end);
        else if (strcmp(argv[i], "--jitter") == 0)
            c.jitter = (int)strtol(v, &end, 10);
        else if (strcmp(argv[i], "--random-plies") == 0)
            c.random_plies = (int)strtol(v, &end, 10);
        else if (strcmp(argv[i], "--threatened") == 0)
            c.threatened = (int)strtol(v, &end, 10);
        else if (strcmp(argv[i], "--seed") == 0)
            c.seed = strtoull(v, &end, 10);
        else {
            usage(stderr);
            return 2;
        }
        if ((end && *end) || errno) {
            usage(stderr);
            return 2;
        }
    }
    if (!c.out || c.games < 1 || c.threads < 1 || c.threads > THREADS_MAX || c.nodes < 1 ||
        c.random_plies < 0 || c.random_plies > 40 || c.jitter < 0 || c.jitter > 90 ||
        c.threatened < 0 || c.threatened > 1) {
        usage(stderr);
        cluster_finish();
        return 2;
    }
    // Under MPI, rank r plays the run of seed + r into OUT.rank<r> (resumable as any run), and
    // rank 0 merges them into OUT once all are done: what one machine gets by running those
    // seeds one after the other and merging them in rank order (damka-datagen --merge).
    const char *merged_out = c.out;
    static char rank_out[4200];
    if (ranks > 1) {
        snprintf(rank_out, sizeof rank_out, "%s.rank%d", c.out, rank);
        c.out = rank_out;
        c.seed += (uint64_t)rank;
    }
    int status = run(&c, openings);
    if (ranks > 1 && cluster_all(status == 0) && rank == 0) {
        char *parts[1024];
        int n = ranks < 1024 ? ranks : 1024;
        for (int r = 0; r < n; r++) {
            parts[r] = malloc(4200);
            snprintf(parts[r], 4200, "%s.rank%d", merged_out, r);
        }
        status = datagen_merge(merged_out, (const char *const *)parts, n);
        for (int r = 0; r < n; r++)
            free(parts[r]);
    }
    cluster_finish();
    return status;
}

// One run of the generator on c->out (resumable); the process's exit status.
static int run(Config *c, const char *openings)
{
    engine_library_init();
    if (!c->pdn && !load_openings(c, openings)) {
        fprintf(stderr, "damka-datagen: cannot read openings %s\n", openings);
        return 1;
    }
    static Shared sh;
    sh.cfg = c;
    if (c->pdn) {
        if (!load_pdn(&sh.pdn, c->pdn))
            return 1;
        fprintf(stderr,
                "damka-datagen: %ld games to replay from %s (%ld without a result "
                "or unreadable, skipped)\n",
                sh.pdn.count, c->pdn, sh.pdn.skipped);
        if (!c->games_given || c->games > sh.pdn.count)
            c->games = sh.pdn.count;
    }
    sh.seen = calloc(UINT64_C(1) << SEEN_LOG2, sizeof *sh.seen);
    pthread_mutex_init(&sh.out_mu, NULL);
    if (!sh.seen)
        return 1;
    // Resume: the positions already written, and the games already played.
    FILE *old = fopen(c->out, "rb");
    uint64_t kept = 0;
    if (old) {
        uint8_t rec[RECORD_BYTES];
        while (fread(rec, 1, RECORD_BYTES, old) == RECORD_BYTES) {
            Board b;
            int result, score;
            if (!record_decode(rec, &b, &result, &score)) {
                fprintf(stderr, "damka-datagen: %s: record %llu is not a position\n", c->out,
                        (unsigned long long)kept);
                return 1;
            }
            first_time(&sh, b.key);
            kept++;
        }
        fclose(old);
        // A run killed in the middle of a write leaves part of a record: drop it, so that the
        // records appended next stay aligned.
        if (truncate(c->out, (off_t)(kept * RECORD_BYTES)) != 0) {
            fprintf(stderr, "damka-datagen: cannot trim %s: %s\n", c->out, strerror(errno));
            return 1;
        }
    }
    char path[4200];
    snprintf(path, sizeof path, "%s.progress", c->out);
    FILE *pf = fopen(path, "r");
    long done = 0;
    if (pf) {
        if (fscanf(pf, "%ld", &done) != 1)
            done = 0;
        fclose(pf);
    }
    atomic_store(&sh.next_game, done);
    atomic_store(&sh.games_done, done);
    sh.out = fopen(c->out, "ab");
    if (!sh.out) {
        fprintf(stderr, "damka-datagen: cannot write %s\n", c->out);
        return 1;
    }
    if (kept || done)
        fprintf(stderr, "damka-datagen: resuming after game %ld, %llu positions kept\n", done,
                (unsigned long long)kept);
    sh.t0 = util_now_s();
    pthread_t tid[THREADS_MAX];
    int started = 0;
    for (int i = 0; i < c->threads; i++)
        if (pthread_create(&tid[started], NULL, worker, &sh) == 0)
            started++;
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    if (started < c->threads)
        atomic_store(&sh.failed, true);
    fclose(sh.out);
    write_progress(&sh);
    double dt = util_now_s() - sh.t0;
    fprintf(stderr,
            "damka-datagen: %ld games, %llu new positions (%llu repeated) in %.1f s, "
            "%.0f positions/s\n",
            atomic_load(&sh.games_done) - done, (unsigned long long)atomic_load(&sh.written),
            (unsigned long long)atomic_load(&sh.duplicates), dt,
            dt > 0 ? (double)atomic_load(&sh.written) / dt : 0.0);
    return atomic_load(&sh.failed) ? 1 : 0;
}
