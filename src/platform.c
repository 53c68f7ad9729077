// SPDX-License-Identifier: MIT
// Owns the engine's calls to the operating system (platform.h): a POSIX body and a Windows
// body, chosen by _WIN32. Nothing else in the engine library tests for a system.
#include "platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#include <windows.h>
#else
#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#ifdef _WIN32

void *platform_alloc_large(size_t bytes, size_t align, void **raw, size_t *raw_bytes)
{
    // VirtualAlloc's blocks are zeroed and aligned to 64 KB; more is asked for and aligned here.
    size_t total = bytes + align;
    void *p = VirtualAlloc(NULL, total, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
    if (!p)
        return NULL;
    *raw = p;
    *raw_bytes = total;
    return (void *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
}

void platform_free_large(void *raw, size_t raw_bytes)
{
    (void)raw_bytes;
    if (raw)
        VirtualFree(raw, 0, MEM_RELEASE);
}

size_t platform_physical_mb(void)
{
    MEMORYSTATUSEX m;
    m.dwLength = sizeof m;
    return GlobalMemoryStatusEx(&m) ? (size_t)(m.ullTotalPhys >> 20) : 0;
}

void *platform_aligned_alloc(size_t align, size_t bytes) { return _aligned_malloc(bytes, align); }

void platform_aligned_free(void *p) { _aligned_free(p); }

bool platform_open_read(const char *path, PlatformFile *f, uint64_t *size)
{
    f->handle = -1;
    HANDLE h = CreateFileA(path, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING,
                           FILE_ATTRIBUTE_NORMAL, NULL);
    if (h == INVALID_HANDLE_VALUE)
        return false;
    LARGE_INTEGER n;
    if (!GetFileSizeEx(h, &n)) {
        CloseHandle(h);
        return false;
    }
    f->handle = (intptr_t)h;
    *size = (uint64_t)n.QuadPart;
    return true;
}

bool platform_read_at(PlatformFile f, void *buf, size_t n, uint64_t offset)
{
    // An OVERLAPPED offset on a handle opened for synchronous reads: each call reads where it
    // says, whatever other threads read meanwhile.
    char *p = buf;
    while (n > 0) {
        OVERLAPPED o;
        memset(&o, 0, sizeof o);
        o.Offset = (DWORD)offset;
        o.OffsetHigh = (DWORD)(offset >> 32);
        DWORD want = n > (1u << 30) ? (1u << 30) : (DWORD)n, got = 0;
        if (!ReadFile((HANDLE)f.handle, p, want, &got, &o) || got == 0)
            return false;
        p += got, n -= got, offset += got;
    }
    return true;
}

void platform_close(PlatformFile *f)
{
    if (f->handle != -1)
        CloseHandle((HANDLE)f->handle);
    f->handle = -1;
}

bool platform_is_readable(const char *path)
{
    return GetFileAttributesA(path) != INVALID_FILE_ATTRIBUTES;
}

bool platform_module_dir(char *out, size_t len)
{
    // The module that holds this variable: the DLL inside a GUI, else the program.
    static const char here = 0;
    HMODULE m = NULL;
    if (!GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
                                GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                            &here, &m))
        return false;
    DWORD n = GetModuleFileNameA(m, out, (DWORD)len);
    if (n == 0 || n >= len)
        return false;
    char *slash = strrchr(out, '\\'), *other = strrchr(out, '/');
    if (other > slash)
        slash = other;
    if (!slash)
        return false;
    *slash = '\0';
    return true;
}

bool platform_stdin_is_terminal(void) { return _isatty(_fileno(stdin)) != 0; }

void platform_binary_stdio(void)
{
    _setmode(_fileno(stdin), _O_BINARY);
    _setmode(_fileno(stdout), _O_BINARY);
}

void platform_yield(void) { SwitchToThread(); }

#else // POSIX

void *platform_alloc_large(size_t bytes, size_t align, void **raw, size_t *raw_bytes)
{
    // An anonymous mapping comes zeroed and untouched (no memset of gigabytes). It is aligned
    // by hand and the kernel is asked for huge pages there: every probe of the table is a
    // random access, and with 4 KB pages most of them also miss the TLB.
    size_t total = bytes + align;
    void *p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    uintptr_t start = ((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1);
#ifdef MADV_HUGEPAGE
    madvise((void *)start, bytes, MADV_HUGEPAGE); // a hint: failure is fine
#endif
    *raw = p;
    *raw_bytes = total;
    return (void *)start;
}

void platform_free_large(void *raw, size_t raw_bytes)
{
    if (raw)
        munmap(raw, raw_bytes);
}

size_t platform_physical_mb(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (size_t)pages / 1024 * (size_t)size / 1024 : 0;
}

void *platform_aligned_alloc(size_t align, size_t bytes)
{
    void *p = NULL;
    return posix_memalign(&p, align, bytes) == 0 ? p : NULL;
}

void platform_aligned_free(void *p) { free(p); }

bool platform_open_read(const char *path, PlatformFile *f, uint64_t *size)
{
    f->handle = -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return false;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return false;
    }
    f->handle = fd;
    *size = (uint64_t)st.st_size;
    return true;
}

bool platform_read_at(PlatformFile f, void *buf, size_t n, uint64_t offset)
{
    char *p = buf;
    while (n > 0) {
        ssize_t got = pread((int)f.handle, p, n, (off_t)offset);
        if (got <= 0)
            return false;
        p += got, n -= (size_t)got, offset += (uint64_t)got;
    }
    return true;
}

void platform_close(PlatformFile *f)
{
    if (f->handle != -1)
        close((int)f->handle);
    f->handle = -1;
}

bool platform_is_readable(const char *path) { return access(path, R_OK) == 0; }

bool platform_module_dir(char *out, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", out, len - 1);
    if (n <= 0 || (size_t)n >= len - 1)
        return false;
    out[n] = '\0';
    char *slash = strrchr(out, '/');
    if (!slash)
        return false;
    *slash = '\0';
    return true;
}

bool platform_stdin_is_terminal(void) { return isatty(fileno(stdin)) != 0; }

void platform_binary_stdio(void) {}

void platform_yield(void) { sched_yield(); }

#endif
