// SPDX-License-Identifier: MIT
// Owns child processes spoken to over pipes: start, line output, line input with deadlines,
// and stopping. Used by the match runner's players and by the protocol tests.
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "match.h"

bool proc_start(Proc *p, const char *cmd, const char *dir)
{
    memset(p, 0, sizeof *p);
    p->to_fd = p->from_fd = -1;
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0)
        return false;
    if (pipe2(out, O_CLOEXEC) != 0) {
        close(in[0]);
        close(in[1]);
        return false;
    }
    char line[600];
    snprintf(line, sizeof line, "exec %s", cmd); // the shell becomes the engine
    pid_t pid = fork();
    if (pid < 0) {
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        return false;
    }
    if (pid == 0) {
        // Child: only async-signal-safe calls until exec. Its own process group, so that a
        // Ctrl-C at the terminal reaches the runner alone, which then finishes the games.
        setpgid(0, 0);
        if (dir && dir[0] && chdir(dir) != 0)
            _exit(127);
        dup2(in[0], 0);
        dup2(out[1], 1);
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0)
            dup2(devnull, 2);
        execl("/bin/sh", "sh", "-c", line, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    p->started = true;
    p->pid = pid;
    p->to_fd = in[1];
    p->from_fd = out[0];
    p->to = fdopen(p->to_fd, "w");
    p->alive = p->to != NULL;
    if (!p->alive)
        proc_stop(p, NULL);
    return p->alive;
}

bool proc_send(Proc *p, const char *fmt, ...)
{
    if (!p->alive)
        return false;
    va_list ap;
    va_start(ap, fmt);
    bool ok = vfprintf(p->to, fmt, ap) >= 0 && fputc('\n', p->to) != EOF && fflush(p->to) == 0;
    va_end(ap);
    return ok;
}

bool proc_send_raw(Proc *p, const void *data, size_t len)
{
    return p->alive && fwrite(data, 1, len, p->to) == len && fflush(p->to) == 0;
}

void proc_close_input(Proc *p)
{
    if (p->to)
        fclose(p->to);
    p->to = NULL;
    p->to_fd = -1;
}

ReplyStatus proc_read_line(Proc *p, int64_t deadline, char *out, size_t len)
{
    for (;;) {
        char *nl = memchr(p->buf, '\n', p->buflen);
        if (nl) {
            size_t n = (size_t)(nl - p->buf);
            size_t copy = n < len - 1 ? n : len - 1;
            memcpy(out, p->buf, copy);
            out[copy] = '\0';
            if (copy && out[copy - 1] == '\r')
                out[copy - 1] = '\0';
            memmove(p->buf, nl + 1, p->buflen - n - 1);
            p->buflen -= n + 1;
            return REPLY_OK;
        }
        if (p->buflen == sizeof p->buf) {
            p->buflen = 0; // a line longer than the buffer: garbage
            return REPLY_BAD;
        }
        int64_t wait = deadline - util_now_ms();
        if (wait <= 0)
            return REPLY_TIMEOUT;
        struct pollfd pfd = {p->from_fd, POLLIN, 0};
        int r = poll(&pfd, 1, wait > 1000000 ? 1000000 : (int)wait);
        if (r <= 0)
            continue; // timeout re-checked above; EINTR retried
        ssize_t got = read(p->from_fd, p->buf + p->buflen, sizeof p->buf - p->buflen);
        if (got <= 0)
            return REPLY_CRASH;
        p->buflen += (size_t)got;
    }
}

ReplyStatus proc_wait_for(Proc *p, const char *word, int64_t deadline, char *out, size_t len)
{
    size_t wl = strlen(word);
    for (;;) {
        ReplyStatus s = proc_read_line(p, deadline, out, len);
        if (s != REPLY_OK)
            return s;
        if (strncmp(out, word, wl) == 0 && (out[wl] == '\0' || out[wl] == ' '))
            return REPLY_OK;
    }
}

int proc_stop(Proc *p, const char *quit_line)
{
    int status = -1;
    if (!p->started)
        return -1; // never started (or already stopped): nothing to close
    if (p->pid > 0) {
        if (quit_line && p->to && p->alive) {
            fprintf(p->to, "%s\n", quit_line);
            fflush(p->to);
        }
        proc_close_input(p); // end of input too, for a process that quits on it
        // Give it a moment to quit cleanly, then kill it. A process asked to quit may need more
        // than a moment: freeing a large hash table under a sanitizer took 150 ms here.
        int64_t deadline = util_now_ms() + (quit_line ? QUIT_GRACE_MS : STOP_GRACE_MS);
        while (p->pid > 0) {
            if (waitpid(p->pid, &status, WNOHANG) == p->pid)
                p->pid = 0;
            else if (util_now_ms() >= deadline)
                break;
            else {
                struct timespec ts = {0, 2000000};
                nanosleep(&ts, NULL);
            }
        }
        if (p->pid > 0) {
            kill(p->pid, SIGKILL);
            waitpid(p->pid, &status, 0);
            status = -1;
        }
    }
    if (p->to)
        fclose(p->to);
    if (p->from_fd >= 0)
        close(p->from_fd);
    p->to = NULL;
    p->to_fd = p->from_fd = -1;
    p->pid = 0;
    p->alive = false;
    p->started = false;
    return status;
}
