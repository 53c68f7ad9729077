// SPDX-License-Identifier: MIT
// Tests of damka-gui's HTTP API over loopback: the real server with the real engine (and a
// crashing fake one), requests from a minimal client, each bad request answered with a 4xx and
// the game unchanged.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "book.h"
#include "match.h"
#include "notation.h"
#include "test_suites.h"

enum { WAIT_MS = 20000, REPLY_MAX = 1 << 20 };

typedef struct Gui {
    Proc proc;
    int port;
} Gui;

// The damka-gui command line with the engine command given (NULL: the real damka) and more
// arguments.
static void gui_command(char *cmd, size_t len, const char *engine, const char *more)
{
    const char *bin = getenv("DAMKA_GUI"), *damka = getenv("DAMKA_BIN");
    ck_assert_msg(bin && damka, "DAMKA_GUI and DAMKA_BIN must be set (run through make test)");
    snprintf(cmd, len, "%s --port 0 --engine '%s' %s", bin, engine ? engine : damka, more);
}

// Starts damka-gui on a free port with the engine command given and more arguments.
static void gui_start_with(Gui *g, const char *engine, const char *more)
{
    char cmd[2048], line[512];
    gui_command(cmd, sizeof cmd, engine, more);
    ck_assert(proc_start(&g->proc, cmd, NULL));
    ck_assert(proc_read_line(&g->proc, util_now_ms() + WAIT_MS, line, sizeof line) == REPLY_OK);
    const char *at = strstr(line, "http://127.0.0.1:");
    ck_assert_msg(at != NULL, "%s", line);
    g->port = atoi(at + strlen("http://127.0.0.1:"));
    ck_assert_int_gt(g->port, 0);
}

static void gui_start(Gui *g, const char *engine) { gui_start_with(g, engine, ""); }

static void gui_stop(Gui *g) { proc_stop(&g->proc, NULL); }

// One request: method, path, extra header lines ("" for none), a body (NULL: none). Returns
// the status; the body of the reply is in out.
static int request(const Gui *g, const char *method, const char *path, const char *headers,
                   const char *body, size_t body_len, char *out, size_t outlen)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert(fd >= 0);
    struct timeval tv = {20, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)g->port)};
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    ck_assert(connect(fd, (struct sockaddr *)&a, sizeof a) == 0);
    char head[4096];
    int n = snprintf(head, sizeof head,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n%s"
                     "Content-Length: %zu\r\n\r\n",
                     method, path, g->port, headers, body ? body_len : 0);
    ck_assert(send(fd, head, (size_t)n, MSG_NOSIGNAL) == n);
    if (body)
        for (size_t sent = 0; sent < body_len;) {
            ssize_t w = send(fd, body + sent, body_len - sent, MSG_NOSIGNAL);
            if (w <= 0)
                break; // the server may answer and close before the whole body
            sent += (size_t)w;
        }
    static char buf[REPLY_MAX];
    size_t len = 0;
    ssize_t r;
    while (len + 1 < sizeof buf && (r = read(fd, buf + len, sizeof buf - 1 - len)) > 0)
        len += (size_t)r;
    buf[len] = '\0';
    close(fd);
    int status = 0;
    ck_assert_msg(sscanf(buf, "HTTP/1.1 %d", &status) == 1, "no status line: %.200s", buf);
    const char *b = strstr(buf, "\r\n\r\n");
    snprintf(out, outlen, "%s", b ? b + 4 : "");
    return status;
}

static const char POST_HEADERS[] = "X-Requested-With: damka\r\n";

static int post(const Gui *g, const char *path, const char *body, char *out, size_t len)
{
    return request(g, "POST", path, POST_HEADERS, body, body ? strlen(body) : 0, out, len);
}

static int get(const Gui *g, const char *path, char *out, size_t len)
{
    return request(g, "GET", path, "", NULL, 0, out, len);
}

// The state once the engine, which starts in the background, is up and idle: a snapshot taken
// earlier would change by itself when the engine comes up.
static void settled_state(const Gui *g, char *out, size_t len)
{
    int64_t deadline = util_now_ms() + WAIT_MS;
    do {
        get(g, "/api/state", out, len);
    } while (!strstr(out, "\"status\":\"idle\"") && util_now_ms() < deadline);
    ck_assert_msg(strstr(out, "\"status\":\"idle\"") != NULL, "the engine did not come up");
}

// The value of "key":"..." in a JSON text (first occurrence), into out.
static void json_str(const char *json, const char *key, char *out, size_t len)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":\"", key);
    const char *at = strstr(json, pat);
    ck_assert_msg(at != NULL, "no %s in %.300s", key, json);
    at += strlen(pat);
    size_t n = 0;
    while (at[n] && at[n] != '"' && n + 1 < len)
        n++;
    memcpy(out, at, n);
    out[n] = '\0';
}

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)) != NULL; p += strlen(what))
        n++;
    return n;
}

static char reply_buf[REPLY_MAX], before[REPLY_MAX];

START_TEST(test_gui_new_game_and_moves)
{
    Gui g;
    gui_start(&g, NULL);
    ck_assert_int_eq(get(&g, "/api/state", reply_buf, sizeof reply_buf), 200);
    ck_assert_int_eq(count(reply_buf, "\"captures\":"), 7); // seven legal moves at the start
    ck_assert_int_eq(post(&g, "/api/move?move=c3-d4", NULL, reply_buf, sizeof reply_buf), 200);
    char turn[16];
    json_str(reply_buf, "turn", turn, sizeof turn);
    ck_assert_str_eq(turn, "black");
    ck_assert(strstr(reply_buf, "\"moves\":[\"c3-d4\"]") != NULL);
    // From a FEN with a capture of two pieces: the only legal move, its path square by square.
    ck_assert_int_eq(post(&g, "/api/new?fen=W:Wc3:Bd4,f6,h8", NULL, reply_buf, sizeof reply_buf),
                     200);
    ck_assert(strstr(reply_buf, "\"path\":[\"c3\",\"e5\",\"g7\"],\"captures\":2") != NULL);
    ck_assert_int_eq(post(&g, "/api/move?move=c3:e5:g7", NULL, reply_buf, sizeof reply_buf), 200);
    ck_assert_int_eq(post(&g, "/api/goto?ply=0", NULL, reply_buf, sizeof reply_buf), 200);
    ck_assert(strstr(reply_buf, "\"ply\":0") != NULL);
    ck_assert_int_eq(post(&g, "/api/takeback", NULL, reply_buf, sizeof reply_buf), 200);
    ck_assert(strstr(reply_buf, "\"moves\":[]") != NULL);
    // The page and its files, and the event stream's first frame.
    ck_assert_int_eq(get(&g, "/", reply_buf, sizeof reply_buf), 200);
    ck_assert(strstr(reply_buf, "<svg id=\"board\"") != NULL);
    ck_assert_int_eq(get(&g, "/app.js", reply_buf, sizeof reply_buf), 200);
    gui_stop(&g);
}
END_TEST

// Bad requests: a 4xx with the reason, and the game as it was.
static const struct {
    const char *method, *path, *headers, *why;
    int status;
} BAD[] = {
    {"POST", "/api/new?fen=W:W33:B1", POST_HEADERS, "bad FEN", 400},
    {"POST", "/api/new?fen=X:W21:B1", POST_HEADERS, "bad FEN", 400},
    {"POST", "/api/move?move=c3-d4", POST_HEADERS, "illegal", 400},
    {"POST", "/api/move?move=zz", POST_HEADERS, "malformed", 400},
    {"POST", "/api/move", POST_HEADERS, "move needs", 400},
    {"POST", "/api/goto?ply=99", POST_HEADERS, "ply must be", 400},
    {"POST", "/api/play?side=purple", POST_HEADERS, "side must be", 400},
    {"POST", "/api/play?side=black&level=21", POST_HEADERS, "level must be 0..20", 400},
    {"POST", "/api/play?side=black&level=x", POST_HEADERS, "level must be 0..20", 400},
    {"POST", "/api/options?hash=0", POST_HEADERS, "hash must be", 400},
    {"POST", "/api/load?index=3", POST_HEADERS, "index must", 400},
    {"POST", "/api/analyse?on=maybe", POST_HEADERS, "on must be", 400},
    {"POST", "/api/nope", POST_HEADERS, "no such API call", 404},
    {"GET", "/etc/passwd", "", "not found", 404},
    {"GET", "/../Makefile", "", "not found", 404},
    {"DELETE", "/api/state", "", "only GET and POST", 405},
    {"POST", "/api/move?move=f6-g5", "", "X-Requested-With", 403},
    {"POST", "/api/move?move=f6-g5", "X-Requested-With: damka\r\nOrigin: http://evil.example\r\n",
     "cross-origin", 403},
    {"GET", "/api/state", "Host: evil.example:80\r\n", "Host not allowed", 403},
};

START_TEST(test_gui_bad_requests)
{
    Gui g;
    gui_start(&g, NULL);
    ck_assert_int_eq(post(&g, "/api/play?side=none", NULL, reply_buf, sizeof reply_buf), 200);
    ck_assert_int_eq(post(&g, "/api/move?move=c3-d4", NULL, reply_buf, sizeof reply_buf), 200);
    settled_state(&g, before, sizeof before);
    char head[512];
    // A second Host header for the DNS-rebinding case: the client's own comes first.
    snprintf(head, sizeof head, "%s", BAD[_i].headers);
    int status;
    if (strncmp(BAD[_i].headers, "Host:", 5) == 0) {
        // Send the request with only the foreign Host header.
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)g.port)};
        inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
        ck_assert(connect(fd, (struct sockaddr *)&a, sizeof a) == 0);
        char req[256];
        int n = snprintf(req, sizeof req, "GET /api/state HTTP/1.1\r\n%sConnection: close\r\n\r\n",
                         BAD[_i].headers);
        ck_assert(write(fd, req, (size_t)n) == n);
        size_t len = 0;
        ssize_t r;
        while ((r = read(fd, reply_buf + len, sizeof reply_buf - 1 - len)) > 0)
            len += (size_t)r;
        reply_buf[len] = '\0';
        close(fd);
        ck_assert(sscanf(reply_buf, "HTTP/1.1 %d", &status) == 1);
    } else {
        status =
            request(&g, BAD[_i].method, BAD[_i].path, head, NULL, 0, reply_buf, sizeof reply_buf);
    }
    ck_assert_msg(status == BAD[_i].status, "%s %s: %d, want %d", BAD[_i].method, BAD[_i].path,
                  status, BAD[_i].status);
    ck_assert_msg(strstr(reply_buf, BAD[_i].why) != NULL, "%s %s: %.300s", BAD[_i].method,
                  BAD[_i].path, reply_buf);
    get(&g, "/api/state", reply_buf, sizeof reply_buf);
    ck_assert_str_eq(reply_buf, before);
    gui_stop(&g);
}
END_TEST

START_TEST(test_gui_oversized_body)
{
    Gui g;
    gui_start(&g, NULL);
    settled_state(&g, before, sizeof before);
    size_t big = 2u << 20;
    char *body = malloc(big);
    ck_assert(body != NULL);
    memset(body, 'x', big);
    int status =
        request(&g, "POST", "/api/pdn", POST_HEADERS, body, big, reply_buf, sizeof reply_buf);
    free(body);
    ck_assert_int_eq(status, 413);
    get(&g, "/api/state", reply_buf, sizeof reply_buf);
    ck_assert_str_eq(reply_buf, before);
    gui_stop(&g);
}
END_TEST

static const char PDN[] = "[Event \"one\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n"
                          "[GameType \"25\"]\n\n1. c3-d4 f6-g5 2. b2-c3 {a comment} g5-h4 "
                          "3. d4-e5 (3. a3-b4) d6xf4 4. g3xe5 1-0\n\n"
                          "[Event \"two\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"2-0\"]\n"
                          "[FEN \"W:W22:B10,18,19\"]\n\n1. 22x15x6 2-0\n";

START_TEST(test_gui_pdn_round_trip)
{
    Gui g;
    gui_start(&g, NULL);
    ck_assert_int_eq(post(&g, "/api/pdn", PDN, reply_buf, sizeof reply_buf), 200);
    ck_assert_int_eq(count(reply_buf, "\"plies\":"), 2);
    ck_assert(strstr(reply_buf, "\"moves\":[\"c3-d4\",\"f6-g5\",\"b2-c3\",\"g5-h4\",\"d4-e5\","
                                "\"d6:f4\",\"g3:e5\"]") != NULL);
    ck_assert_int_eq(post(&g, "/api/load?index=1", NULL, reply_buf, sizeof reply_buf), 200);
    ck_assert(strstr(reply_buf, "\"moves\":[\"c3:e5:c7\"]") != NULL);
    // The headers are kept and 2-0 (the draughts federations' score) exports as 1-0.
    char exported[8192];
    ck_assert_int_eq(get(&g, "/api/pdn", exported, sizeof exported), 200);
    ck_assert_msg(strstr(exported, "[GameType \"25\"]") &&
                      strstr(exported, "[FEN \"W:Wc3:Bd6,d4,f4\"]") &&
                      strstr(exported, "[White \"C\"]") && strstr(exported, "[Black \"D\"]") &&
                      strstr(exported, "[Result \"1-0\"]") && strstr(exported, "1. c3:e5:c7 1-0"),
                  "%s", exported);
    // The export imports again as the same game.
    ck_assert_int_eq(post(&g, "/api/pdn", exported, reply_buf, sizeof reply_buf), 200);
    ck_assert(strstr(reply_buf, "\"moves\":[\"c3:e5:c7\"]") != NULL);
    // A PDN with no readable game is refused and the game kept.
    settled_state(&g, before, sizeof before);
    ck_assert_int_eq(
        post(&g, "/api/pdn", "[GameType \"20\"]\n1. 32-28 *\n", reply_buf, sizeof reply_buf), 400);
    ck_assert(strstr(reply_buf, "GameType") != NULL);
    ck_assert_int_eq(post(&g, "/api/pdn", "1. c3-d4 c3-d4 *", reply_buf, sizeof reply_buf), 400);
    get(&g, "/api/state", reply_buf, sizeof reply_buf);
    ck_assert_str_eq(reply_buf, before);
    gui_stop(&g);
}
END_TEST

// A move other than the game's at a shown position keeps the old moves as a side line; the
// game's own move keeps the line; a side line comes back as the game's; PDN writes it.
START_TEST(test_gui_side_lines)
{
    Gui g;
    gui_start(&g, NULL);
    ck_assert_int_eq(post(&g, "/api/play?side=none", NULL, reply_buf, sizeof reply_buf), 200);
    static const char *const moves[] = {"c3-d4", "f6-g5", "b2-c3"};
    for (int i = 0; i < 3; i++) {
        char path[64];
        snprintf(path, sizeof path, "/api/move?move=%s", moves[i]);
        ck_assert_int_eq(post(&g, path, NULL, reply_buf, sizeof reply_buf), 200);
    }
    ck_assert_int_eq(post(&g, "/api/goto?ply=0", NULL, reply_buf, sizeof reply_buf), 200);
    ck_assert_int_eq(post(&g, "/api/move?move=c3-d4", NULL, reply_buf, sizeof reply_buf), 200);
    ck_assert(strstr(reply_buf, "\"moves\":[\"c3-d4\",\"f6-g5\",\"b2-c3\"]") != NULL);
    ck_assert(strstr(reply_buf, "\"side_lines\":[]") != NULL);
    ck_assert_int_eq(post(&g, "/api/move?move=d6-c5", NULL, reply_buf, sizeof reply_buf), 200);
    ck_assert_msg(strstr(reply_buf, "\"moves\":[\"c3-d4\",\"d6-c5\"]") &&
                      strstr(reply_buf, "\"side_lines\":[{\"ply\":1,\"moves\":[\"f6-g5\","
                                        "\"b2-c3\"]}]"),
                  "%.2000s", reply_buf);
    char exported[8192];
    ck_assert_int_eq(get(&g, "/api/pdn", exported, sizeof exported), 200);
    ck_assert_msg(strstr(exported, "1. c3-d4 d6-c5 (1... f6-g5 2. b2-c3) *"), "%s", exported);
    ck_assert_int_eq(post(&g, "/api/side-line?index=0", NULL, reply_buf, sizeof reply_buf), 200);
    ck_assert_msg(strstr(reply_buf, "\"moves\":[\"c3-d4\",\"f6-g5\",\"b2-c3\"]") &&
                      strstr(reply_buf, "\"side_lines\":[{\"ply\":1,\"moves\":[\"d6-c5\"]}]"),
                  "%.2000s", reply_buf);
    ck_assert_int_eq(post(&g, "/api/side-line?index=1", NULL, reply_buf, sizeof reply_buf), 400);
    gui_stop(&g);
}
END_TEST

// /api/preview: the position after a line from the shown one, the game untouched; a bad line
// is refused. /api/analyse-game: every position of the game gets a score (White's view), then
// the analysis stops by itself; a bad time is refused.
START_TEST(test_gui_preview_and_game_analysis)
{
    Gui g;
    gui_start(&g, NULL);
    ck_assert_int_eq(post(&g, "/api/play?side=none", NULL, reply_buf, sizeof reply_buf), 200);
    static const char *const moves[] = {"c3-d4", "f6-g5", "b2-c3", "g5-h4"};
    for (int i = 0; i < 4; i++) {
        char path[64];
        snprintf(path, sizeof path, "/api/move?move=%s", moves[i]);
        ck_assert_int_eq(post(&g, path, NULL, reply_buf, sizeof reply_buf), 200);
    }
    ck_assert_int_eq(post(&g, "/api/goto?ply=2", NULL, reply_buf, sizeof reply_buf), 200);
    settled_state(&g, before, sizeof before);
    ck_assert_int_eq(
        get(&g, "/api/preview?moves=b2-c3%20g5-h4%20a1-b2", reply_buf, sizeof reply_buf), 200);
    ck_assert_msg(strstr(reply_buf, "\"plies\":3") && strstr(reply_buf, "\"turn\":\"black\"") &&
                      strstr(reply_buf, "\"last\":[\"a1\",\"b2\"]"),
                  "%s", reply_buf);
    ck_assert_int_eq(get(&g, "/api/preview?moves=b2-c3%20b2-c3", reply_buf, sizeof reply_buf), 400);
    ck_assert(strstr(reply_buf, "a move of the line") != NULL);
    ck_assert_int_eq(get(&g, "/api/preview", reply_buf, sizeof reply_buf), 400);
    get(&g, "/api/state", reply_buf, sizeof reply_buf);
    ck_assert_str_eq(reply_buf, before); // the game and the shown position are as they were
    ck_assert_int_eq(
        post(&g, "/api/analyse-game?on=true&movetime=99999", NULL, reply_buf, sizeof reply_buf),
        400);
    int64_t deadline = util_now_ms() + WAIT_MS; // the engine starts in the background
    do {
        get(&g, "/api/state", reply_buf, sizeof reply_buf);
    } while (!strstr(reply_buf, "\"status\":\"idle\"") && util_now_ms() < deadline);
    ck_assert_int_eq(
        post(&g, "/api/analyse-game?on=true&movetime=0.05", NULL, reply_buf, sizeof reply_buf),
        200);
    deadline = util_now_ms() + WAIT_MS;
    do {
        get(&g, "/api/state", reply_buf, sizeof reply_buf);
    } while ((count(reply_buf, "\"running\":true") || count(reply_buf, "null")) &&
             util_now_ms() < deadline);
    const char *scores = strstr(reply_buf, "\"scores\":[");
    ck_assert_msg(scores && !count(reply_buf, "\"running\":true"), "%.600s", reply_buf);
    int n = 1;
    for (const char *c = scores + 10; *c && *c != ']'; c++)
        n += *c == ',';
    ck_assert_int_eq(n, 5); // the start and the four positions after each move
    ck_assert(strncmp(scores + 10, "null", 4) != 0);
    gui_stop(&g);
}
END_TEST

START_TEST(test_gui_engine_plays_and_restarts)
{
    // The real engine answers a move by itself (at a weakened level, which the state shows); a
    // fake engine that exits on its second go is reported and restarted, and the game goes on.
    Gui g;
    gui_start(&g, NULL);
    ck_assert_int_eq(
        post(&g, "/api/play?side=black&movetime=0.1&level=5", NULL, reply_buf, sizeof reply_buf),
        200);
    ck_assert(strstr(reply_buf, "\"level\":5}") != NULL);
    ck_assert_int_eq(post(&g, "/api/move?move=c3-d4", NULL, reply_buf, sizeof reply_buf), 200);
    int64_t deadline = util_now_ms() + WAIT_MS;
    do {
        get(&g, "/api/state", reply_buf, sizeof reply_buf);
    } while (count(reply_buf, "\"moves\":[\"c3-d4\",\"") == 0 && util_now_ms() < deadline);
    ck_assert_msg(count(reply_buf, "\"moves\":[\"c3-d4\",\"") == 1, "no reply: %.300s", reply_buf);
    gui_stop(&g);

    char fake[1024];
    snprintf(fake, sizeof fake, "%s/fake_engine crash", getenv("FAKE_DIR"));
    gui_start(&g, fake);
    ck_assert_int_eq(
        post(&g, "/api/play?side=both&movetime=0.05", NULL, reply_buf, sizeof reply_buf), 200);
    deadline = util_now_ms() + WAIT_MS;
    do {
        get(&g, "/api/state", reply_buf, sizeof reply_buf);
    } while ((!strstr(reply_buf, "crashed") || count(reply_buf, "\"restarts\":0")) &&
             util_now_ms() < deadline);
    ck_assert_msg(strstr(reply_buf, "the engine crashed; restarted") != NULL, "%.500s", reply_buf);
    // It goes on playing after the restart: more moves come.
    deadline = util_now_ms() + WAIT_MS;
    do {
        get(&g, "/api/state", reply_buf, sizeof reply_buf);
    } while (count(reply_buf, "\"restarts\":1,") + count(reply_buf, "\"restarts\":0,") &&
             util_now_ms() < deadline);
    ck_assert_msg(count(reply_buf, "\"restarts\":1,") + count(reply_buf, "\"restarts\":0,") == 0,
                  "no second restart (so no move after the first): %.500s", reply_buf);
    ck_assert_msg(strstr(reply_buf, "\"status\":\"down\"") == NULL, "%.500s", reply_buf);
    gui_stop(&g);
}
END_TEST

START_TEST(test_gui_pondering)
{
    // With pondering on, the engine ponders on the reply it expects; when the player makes it,
    // the search goes on (ponderhit) and the engine's move follows.
    Gui g;
    gui_start(&g, NULL);
    ck_assert_int_eq(post(&g, "/api/play?side=black&base=20&inc=0.5&ponder=true", NULL, reply_buf,
                          sizeof reply_buf),
                     200);
    ck_assert_int_eq(post(&g, "/api/move?move=c3-d4", NULL, reply_buf, sizeof reply_buf), 200);
    char expected[64] = "";
    int64_t deadline = util_now_ms() + WAIT_MS;
    do {
        get(&g, "/api/state", reply_buf, sizeof reply_buf);
        if (strstr(reply_buf, "\"status\":\"pondering\""))
            json_str(reply_buf, "expected", expected, sizeof expected);
    } while (!expected[0] && util_now_ms() < deadline);
    ck_assert_msg(expected[0], "no pondering: %.400s", reply_buf);
    char path[128];
    snprintf(path, sizeof path, "/api/move?move=%s", expected);
    ck_assert_int_eq(post(&g, path, NULL, reply_buf, sizeof reply_buf), 200);
    ck_assert_msg(strstr(reply_buf, "\"ponderhits\":1") != NULL, "%.400s", reply_buf);
    deadline = util_now_ms() + WAIT_MS;
    do {
        get(&g, "/api/state", reply_buf, sizeof reply_buf);
    } while (count(reply_buf, "\"ply\":4,") == 0 && util_now_ms() < deadline);
    ck_assert_msg(count(reply_buf, "\"ply\":4,") == 1, "no reply after ponderhit: %.400s",
                  reply_buf);
    gui_stop(&g);
}
END_TEST

START_TEST(test_gui_engine_hangs)
{
    // An engine that never answers is stopped after its time and a margin, reported, restarted.
    Gui g;
    char fake[1024];
    snprintf(fake, sizeof fake, "%s/fake_engine hang", getenv("FAKE_DIR"));
    gui_start(&g, fake);
    ck_assert_int_eq(
        post(&g, "/api/play?side=white&movetime=0.05", NULL, reply_buf, sizeof reply_buf), 200);
    int64_t deadline = util_now_ms() + WAIT_MS;
    do {
        get(&g, "/api/state", reply_buf, sizeof reply_buf);
    } while (!strstr(reply_buf, "stopped answering") && util_now_ms() < deadline);
    ck_assert_msg(strstr(reply_buf, "the engine stopped answering; restarted") != NULL, "%.500s",
                  reply_buf);
    gui_stop(&g);
}
END_TEST

START_TEST(test_gui_first_game)
{
    // A newcomer's first game needs no setting: the engine has Black at a second a move and
    // answers White's first move by itself.
    Gui g;
    gui_start(&g, NULL);
    get(&g, "/api/state", reply_buf, sizeof reply_buf);
    ck_assert_msg(strstr(reply_buf, "\"engine\":\"black\",\"base\":180000,\"inc\":2000,"
                                    "\"movetime\":1000") != NULL,
                  "%.600s", reply_buf);
    ck_assert_int_eq(post(&g, "/api/move?move=c3-d4", NULL, reply_buf, sizeof reply_buf), 200);
    int64_t deadline = util_now_ms() + WAIT_MS;
    do {
        get(&g, "/api/state", reply_buf, sizeof reply_buf);
    } while (count(reply_buf, "\"moves\":[\"c3-d4\",\"") == 0 && util_now_ms() < deadline);
    ck_assert_msg(count(reply_buf, "\"moves\":[\"c3-d4\",\"") == 1, "no reply: %.300s", reply_buf);
    gui_stop(&g);
}
END_TEST

// Starts damka-gui with the engine command given, and times how long it takes to answer.
static int64_t gui_start_timed(Gui *g, const char *engine)
{
    int64_t t0 = util_now_ms();
    gui_start(g, engine);
    ck_assert_int_eq(get(g, "/api/state", reply_buf, sizeof reply_buf), 200);
    return util_now_ms() - t0;
}

START_TEST(test_gui_bad_engine)
{
    // A program that is no engine (cat never answers uci) or no program at all: the server
    // answers at once, says what is wrong, people can play each other, and SIGTERM stops it.
    static const struct {
        const char *engine, *why;
    } CASES[] = {{"/bin/cat", "did not answer 'uci' within 5 s"},
                 {"/nonexistent/engine", "no such program"}};
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        Gui g;
        int64_t took = gui_start_timed(&g, CASES[i].engine);
        ck_assert_msg(took < 3000, "%s: the server answered after %lld ms", CASES[i].engine,
                      (long long)took);
        int64_t deadline = util_now_ms() + WAIT_MS;
        do {
            get(&g, "/api/state", reply_buf, sizeof reply_buf);
        } while (!strstr(reply_buf, CASES[i].why) && util_now_ms() < deadline);
        ck_assert_msg(strstr(reply_buf, CASES[i].why) && strstr(reply_buf, "between people"),
                      "%s: %.900s", CASES[i].engine, reply_buf);
        ck_assert_int_eq(post(&g, "/api/move?move=c3-d4", NULL, reply_buf, sizeof reply_buf), 200);
        ck_assert_int_eq(post(&g, "/api/move?move=f6-g5", NULL, reply_buf, sizeof reply_buf), 200);
        int64_t t0 = util_now_ms();
        ck_assert_int_eq(kill(g.proc.pid, SIGTERM), 0);
        char line[512];
        ReplyStatus r;
        while ((r = proc_read_line(&g.proc, util_now_ms() + WAIT_MS, line, sizeof line)) ==
               REPLY_OK)
            ;
        ck_assert_int_eq(r, REPLY_CRASH); // its output ended: it stopped
        ck_assert_msg(util_now_ms() - t0 < 3000, "%s: SIGTERM took %lld ms", CASES[i].engine,
                      (long long)(util_now_ms() - t0));
        gui_stop(&g);
    }
}
END_TEST

START_TEST(test_gui_book)
{
    // The page lists the book's moves of the shown position and marks the engine's move that
    // came from the book; a book damka-gui cannot read is refused with one line at start.
    Board start;
    board_start(&start);
    Move m;
    char err[256], path[256], cmd[2048], more[300];
    ck_assert(notation_parse_move(&start, "g3-h4", MOVE_FMT_ALG, &m, err, sizeof err));
    BookEntry e;
    book_entry_of(&start, &m, &e);
    e.weight = 10, e.score = 12, e.wins = 3, e.draws = 4, e.losses = 1;
    snprintf(path, sizeof path, "/tmp/damka-gui-test-%ld.book", (long)getpid());
    ck_assert_msg(book_write(path, &e, 1, err, sizeof err), "%s", err);
    Gui g;
    snprintf(more, sizeof more, "--book '%s'", path);
    gui_start_with(&g, NULL, more);
    get(&g, "/api/state", reply_buf, sizeof reply_buf);
    ck_assert_msg(strstr(reply_buf, "\"book\":[{\"move\":\"g3-h4\",\"weight\":10,\"score\":12,"
                                    "\"wins\":3,\"draws\":4,\"losses\":1}]") != NULL,
                  "%.600s", reply_buf);
    ck_assert_int_eq(
        post(&g, "/api/play?side=white&movetime=0.5", NULL, reply_buf, sizeof reply_buf), 200);
    int64_t deadline = util_now_ms() + WAIT_MS;
    do {
        get(&g, "/api/state", reply_buf, sizeof reply_buf);
    } while (!strstr(reply_buf, "\"moves\":[\"") && util_now_ms() < deadline);
    ck_assert_msg(strstr(reply_buf, "\"moves\":[\"g3-h4\"]") != NULL, "%.600s", reply_buf);
    ck_assert_msg(strstr(reply_buf, "\"book\":[],\"book_plies\":[1]") != NULL, "%.600s", reply_buf);
    // A move of the person's is never marked.
    ck_assert_int_eq(post(&g, "/api/move?move=f6-g5", NULL, reply_buf, sizeof reply_buf), 200);
    get(&g, "/api/state", reply_buf, sizeof reply_buf);
    ck_assert_msg(strstr(reply_buf, "\"book_plies\":[1]") != NULL, "%.600s", reply_buf);
    gui_stop(&g);

    FILE *f = fopen(path, "r+b"); // a changed byte: the checksum refuses it
    ck_assert(f && fseek(f, 60, SEEK_SET) == 0 && fputc(0x55, f) != EOF && fclose(f) == 0);
    strcat(more, " 2>&1");
    gui_command(cmd, sizeof cmd, NULL, more);
    Proc p;
    ck_assert(proc_start(&p, cmd, NULL));
    char line[512];
    ck_assert(proc_read_line(&p, util_now_ms() + WAIT_MS, line, sizeof line) == REPLY_OK);
    ck_assert_msg(strncmp(line, "damka-gui: ", 11) == 0 && strstr(line, path), "%s", line);
    ck_assert(proc_read_line(&p, util_now_ms() + WAIT_MS, line, sizeof line) == REPLY_CRASH);
    proc_stop(&p, NULL);
    remove(path);
}
END_TEST

Suite *suite_gui(void)
{
    Suite *s = suite_create("gui");
    TCase *tc = tcase_create("http");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_gui_new_game_and_moves);
    tcase_add_loop_test(tc, test_gui_bad_requests, 0, (int)(sizeof BAD / sizeof BAD[0]));
    tcase_add_test(tc, test_gui_oversized_body);
    tcase_add_test(tc, test_gui_pdn_round_trip);
    tcase_add_test(tc, test_gui_side_lines);
    tcase_add_test(tc, test_gui_preview_and_game_analysis);
    tcase_add_test(tc, test_gui_engine_plays_and_restarts);
    tcase_add_test(tc, test_gui_pondering);
    tcase_add_test(tc, test_gui_engine_hangs);
    tcase_add_test(tc, test_gui_book);
    tcase_add_test(tc, test_gui_first_game);
    tcase_add_test(tc, test_gui_bad_engine);
    suite_add_tcase(s, tc);
    return s;
}
