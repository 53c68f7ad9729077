// SPDX-License-Identifier: MIT
// damka-gui's HTTP server on libmicrohttpd: the page's assets, the JSON API, the live event
// stream (Server-Sent Events), and the checks on every request (Host, Origin, method, sizes).
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "book.h"
#include "engine.h"
#include "gui.h"
#include "util.h"

enum {
    CONNECTIONS_MAX = 64,
    IDLE_TIMEOUT_S = 120, // a connection with no traffic is closed (streams ping)
    PING_MS = 15000,      // the event stream sends a comment this often
};

typedef struct Server {
    Session *session;
    char hosts[4][300]; // accepted Host header values
    int nhosts;
} Server;

typedef struct Request {
    Buf body;
    bool too_large;
} Request;

typedef struct Stream {
    Server *srv;
    uint64_t seq;
    bool started;
    Buf pending;
    size_t sent;
} Stream;

static void add_headers(struct MHD_Response *r, const char *type)
{
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "Cache-Control", "no-store");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "X-Frame-Options", "DENY");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(r, "Content-Security-Policy",
                            "default-src 'self'; style-src 'self' 'unsafe-inline'; "
                            "img-src 'self' data:");
}

static enum MHD_Result reply(struct MHD_Connection *c, int status, const char *type,
                             const void *data, size_t len, bool copy)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(
        len, (void *)data, copy ? MHD_RESPMEM_MUST_COPY : MHD_RESPMEM_PERSISTENT);
    if (!r)
        return MHD_NO;
    add_headers(r, type);
    enum MHD_Result ret = MHD_queue_response(c, (unsigned)status, r);
    MHD_destroy_response(r);
    return ret;
}

static enum MHD_Result reply_error(struct MHD_Connection *c, int status, const char *why)
{
    Buf b;
    buf_init(&b);
    buf_printf(&b, "{\"error\":");
    buf_json_string(&b, why);
    buf_printf(&b, "}");
    enum MHD_Result r =
        reply(c, status, "application/json", b.failed ? "{}" : b.data, b.failed ? 2 : b.len, true);
    buf_free(&b);
    return r;
}

static enum MHD_Result reply_state(struct MHD_Connection *c, Session *s)
{
    Buf b;
    buf_init(&b);
    session_state(s, &b);
    enum MHD_Result r = b.failed ? reply_error(c, 500, "out of memory")
                                 : reply(c, 200, "application/json", b.data, b.len, true);
    buf_free(&b);
    return r;
}

// ---- Live events --------------------------------------------------------------------------------

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    Stream *st = cls;
    Session *s = st->srv->session;
    while (st->sent >= st->pending.len) {
        st->pending.len = 0;
        st->sent = 0;
        if (!st->started) {
            // First the whole state, then every event after it.
            st->seq = session_event_head(s);
            st->started = true;
            buf_printf(&st->pending, "retry: 1000\nevent: state\ndata: ");
            session_state(s, &st->pending);
            buf_printf(&st->pending, "\n\n");
        } else if (!session_wait_event(s, st->seq, PING_MS)) {
            return MHD_CONTENT_READER_END_OF_STREAM;
        } else {
            session_event(s, &st->seq, &st->pending);
            if (st->pending.len == 0)
                buf_printf(&st->pending, ": ping\n\n");
        }
        if (st->pending.failed)
            return MHD_CONTENT_READER_END_WITH_ERROR;
    }
    size_t n = st->pending.len - st->sent;
    if (n > max)
        n = max;
    memcpy(buf, st->pending.data + st->sent, n);
    st->sent += n;
    return (ssize_t)n;
}

static void stream_free(void *cls)
{
    Stream *st = cls;
    buf_free(&st->pending);
    free(st);
}

static enum MHD_Result reply_stream(struct MHD_Connection *c, Server *srv)
{
    Stream *st = calloc(1, sizeof *st);
    if (!st)
        return reply_error(c, 500, "out of memory");
    st->srv = srv;
    buf_init(&st->pending);
    struct MHD_Response *r =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16384, stream_read, st, stream_free);
    if (!r) {
        stream_free(st);
        return MHD_NO;
    }
    add_headers(r, "text/event-stream");
    enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ret;
}

// ---- Requests -----------------------------------------------------------------------------------

static bool allowed_host(const Server *srv, const char *host)
{
    for (int i = 0; host && i < srv->nhosts; i++)
        if (strcmp(host, srv->hosts[i]) == 0)
            return true;
    return false;
}

// An Origin header, when a browser sends one, must be this server's own.
static bool allowed_origin(const Server *srv, const char *origin)
{
    if (!origin)
        return true;
    const char *h = strncmp(origin, "http://", 7) == 0 ? origin + 7 : NULL;
    return h && allowed_host(srv, h);
}

static const char *arg(struct MHD_Connection *c, const char *key)
{
    const char *v = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, key);
    return v && strlen(v) <= GUI_QUERY_MAX ? v : NULL;
}

static enum MHD_Result api_post(struct MHD_Connection *c, Server *srv, const char *url, Request *rq)
{
    Session *s = srv->session;
    ApiResult r;
    if (strcmp(url, "/api/new") == 0)
        r = session_new_game(s, arg(c, "fen"));
    else if (strcmp(url, "/api/move") == 0)
        r = session_move(s, arg(c, "move"));
    else if (strcmp(url, "/api/goto") == 0)
        r = session_goto(s, arg(c, "ply"));
    else if (strcmp(url, "/api/takeback") == 0)
        r = session_takeback(s);
    else if (strcmp(url, "/api/side-line") == 0)
        r = session_side_line(s, arg(c, "index"));
    else if (strcmp(url, "/api/play") == 0)
        r = session_play(s, arg(c, "side"), arg(c, "base"), arg(c, "inc"), arg(c, "movetime"),
                         arg(c, "ponder"), arg(c, "level"));
    else if (strcmp(url, "/api/analyse") == 0)
        r = session_analyse(s, arg(c, "on"));
    else if (strcmp(url, "/api/analyse-game") == 0)
        r = session_analyse_game(s, arg(c, "on"), arg(c, "movetime"));
    else if (strcmp(url, "/api/options") == 0)
        r = session_options(s, arg(c, "hash"), arg(c, "threads"), arg(c, "multipv"));
    else if (strcmp(url, "/api/pdn") == 0)
        r = session_import_pdn(s, rq->body.data ? rq->body.data : "", rq->body.len);
    else if (strcmp(url, "/api/load") == 0)
        r = session_load(s, arg(c, "index"));
    else
        return reply_error(c, 404, "no such API call");
    if (r.status != 200)
        return reply_error(c, r.status, r.error);
    return reply_state(c, s);
}

static enum MHD_Result api_get(struct MHD_Connection *c, Server *srv, const char *url)
{
    if (strcmp(url, "/api/state") == 0)
        return reply_state(c, srv->session);
    if (strcmp(url, "/api/events") == 0)
        return reply_stream(c, srv);
    if (strcmp(url, "/api/preview") == 0) {
        Buf b;
        buf_init(&b);
        ApiResult r = session_preview(srv->session, arg(c, "moves"), &b);
        enum MHD_Result ret = r.status != 200 ? reply_error(c, r.status, r.error)
                              : b.failed      ? reply_error(c, 500, "out of memory")
                                         : reply(c, 200, "application/json", b.data, b.len, true);
        buf_free(&b);
        return ret;
    }
    if (strcmp(url, "/api/pdn") == 0) {
        Buf b;
        buf_init(&b);
        session_pdn(srv->session, &b);
        struct MHD_Response *r = MHD_create_response_from_buffer(
            b.len, b.data ? b.data : (void *)"", MHD_RESPMEM_MUST_COPY);
        buf_free(&b);
        if (!r)
            return MHD_NO;
        add_headers(r, "application/x-chess-pdn; charset=utf-8");
        MHD_add_response_header(r, "Content-Disposition", "attachment; filename=\"damka.pdn\"");
        enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_OK, r);
        MHD_destroy_response(r);
        return ret;
    }
    const char *path = strcmp(url, "/") == 0 ? "/index.html" : url;
    for (int i = 0; i < g_gui_asset_count; i++)
        if (strcmp(path, g_gui_assets[i].path) == 0)
            return reply(c, 200, g_gui_assets[i].type, g_gui_assets[i].data, g_gui_assets[i].len,
                         false);
    return reply_error(c, 404, "not found");
}

// The checks every request passes before anything is read of its body.
static enum MHD_Result refuse(struct MHD_Connection *c, Server *srv, const char *url,
                              const char *method, bool *refused)
{
    *refused = true;
    if (!allowed_host(srv, MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host")))
        return reply_error(c, 403, "Host not allowed (only this machine's own names)");
    if (!allowed_origin(srv, MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin")))
        return reply_error(c, 403, "cross-origin requests are refused");
    bool post = strcmp(method, "POST") == 0,
         get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    if (!post && !get)
        return reply_error(c, 405, "only GET and POST");
    if (post && strncmp(url, "/api/", 5) != 0)
        return reply_error(c, 404, "not found");
    // A page of another site cannot send this header without the server's consent (CORS).
    const char *xrw = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Requested-With");
    if (post && (!xrw || strcmp(xrw, "damka") != 0))
        return reply_error(c, 403, "POST needs the header X-Requested-With: damka");
    const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
    if (cl && strtoull(cl, NULL, 10) > GUI_BODY_MAX)
        return reply_error(c, 413, "request body too large");
    *refused = false;
    return MHD_YES;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *upload,
                                  size_t *upload_size, void **con_cls)
{
    (void)version;
    Server *srv = cls;
    Request *rq = *con_cls;
    if (!rq) {
        bool refused;
        enum MHD_Result r = refuse(c, srv, url, method, &refused);
        if (refused)
            return r;
        rq = calloc(1, sizeof *rq);
        if (!rq)
            return MHD_NO;
        buf_init(&rq->body);
        *con_cls = rq;
        return MHD_YES;
    }
    if (*upload_size) {
        if (rq->body.len + *upload_size > GUI_BODY_MAX)
            rq->too_large = true;
        else
            buf_append(&rq->body, upload, *upload_size);
        *upload_size = 0;
        return MHD_YES;
    }
    if (rq->too_large)
        return reply_error(c, 413, "request body too large");
    if (strcmp(method, "POST") == 0)
        return api_post(c, srv, url, rq);
    return api_get(c, srv, url);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode code)
{
    (void)cls, (void)c, (void)code;
    Request *rq = *con_cls;
    if (rq) {
        buf_free(&rq->body);
        free(rq);
        *con_cls = NULL;
    }
}

// ---- Start --------------------------------------------------------------------------------------

static void usage(FILE *out)
{
    fprintf(out,
            "usage: damka-gui [--port N] [--host ADDRESS] [--engine \"CMD ...\"] [--book FILE]\n"
            "Serves a page to play and analyse Russian draughts at http://127.0.0.1:%d/\n"
            "(port 0: any free port). The engine is any of the UCI-style dialect; by\n"
            "default the damka beside this program. --host listens on another address\n"
            "(default 127.0.0.1: this machine only). --book: the opening book the engine\n"
            "plays from and the page lists (default: the engine's own; none: no book).\n",
            GUI_PORT_DEFAULT);
}

// The damka binary beside this program, else "damka" on the PATH.
static void default_engine(char *out, size_t len)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            snprintf(slash + 1, sizeof exe - (size_t)(slash + 1 - exe), "damka");
            size_t m = strlen(exe);
            if (access(exe, X_OK) == 0 && m + 3 <= len) { // quoted, and never cut
                out[0] = '\'';
                memcpy(out + 1, exe, m);
                out[m + 1] = '\'';
                out[m + 2] = '\0';
                return;
            }
        }
    }
    snprintf(out, len, "damka");
}

int main(int argc, char **argv)
{
    long port = GUI_PORT_DEFAULT;
    const char *host = "127.0.0.1", *book = NULL;
    char engine[1024];
    util_standard_args(argc, argv, "damka-gui", DAMKA_VERSION, usage);
    default_engine(engine, sizeof engine);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (strcmp(a, "--port") == 0 && v) {
            errno = 0;
            port = strtol(v, &end, 10);
            if (errno || *end || port < 0 || port > 65535) {
                fprintf(stderr, "damka-gui: --port must be 0..65535\n");
                return 2;
            }
            i++;
        } else if (strcmp(a, "--host") == 0 && v) {
            host = v, i++;
        } else if (strcmp(a, "--book") == 0 && v && *v) {
            book = v, i++;
        } else if (strcmp(a, "--engine") == 0 && v && *v) {
            snprintf(engine, sizeof engine, "%s", v), i++;
        } else {
            fprintf(stderr, "damka-gui: unknown argument '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, host, &addr.sin_addr) != 1) {
        fprintf(stderr, "damka-gui: --host must be an IPv4 address such as 127.0.0.1\n");
        return 2;
    }
    engine_library_init();
    signal(SIGPIPE, SIG_IGN); // an engine that dies must not take the server down
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, NULL); // every thread inherits it; main waits
    Server srv = {0};
    char err[BOOK_ERR_MAX + 64];
    srv.session = session_new(engine, book, err, sizeof err);
    if (!srv.session) {
        fprintf(stderr, "damka-gui: %s\n", err);
        return 1;
    }
    struct MHD_Daemon *d = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_ERROR_LOG,
        (uint16_t)port, NULL, NULL, on_request, &srv, MHD_OPTION_SOCK_ADDR,
        (struct sockaddr *)&addr, MHD_OPTION_CONNECTION_LIMIT, (unsigned)CONNECTIONS_MAX,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)IDLE_TIMEOUT_S, MHD_OPTION_NOTIFY_COMPLETED,
        on_completed, NULL, MHD_OPTION_END);
    if (!d) {
        fprintf(stderr, "damka-gui: cannot listen on %s:%ld\n", host, port);
        session_free(srv.session);
        return 1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    if (info)
        port = info->port;
    // The Host header a browser sends for this server, by every name of the address.
    snprintf(srv.hosts[srv.nhosts++], sizeof srv.hosts[0], "%s:%ld", host, port);
    if (strcmp(host, "127.0.0.1") == 0) {
        snprintf(srv.hosts[srv.nhosts++], sizeof srv.hosts[0], "localhost:%ld", port);
        snprintf(srv.hosts[srv.nhosts++], sizeof srv.hosts[0], "[::1]:%ld", port);
    }
    printf("damka-gui: serving http://%s:%ld/ (engine: %s)\n", host, port, engine);
    fflush(stdout);
    int sig = 0;
    sigwait(&stop_signals, &sig);
    printf("damka-gui: stopping\n");
    fflush(stdout);
    session_shutdown(srv.session); // event streams end, so that their threads can be joined
    MHD_stop_daemon(d);
    session_free(srv.session);
    return 0;
}
