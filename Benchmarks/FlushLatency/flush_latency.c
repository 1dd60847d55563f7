// A preloaded shim that makes every flush to disk take longer: fsync, fdatasync,
// sync_file_range, syncfs and msync first do the real work, then sleep
// MOMENTUM_FLUSH_LATENCY_US microseconds (0 when unset). It stands in for a disk whose
// flush costs a millisecond or more (a network volume, a cheap SSD, a cloud disk under
// load), so that group commit can be measured where it matters.
//
//   cc -shared -fPIC -O2 -o libflushlatency.so flush_latency.c -ldl
//   LD_PRELOAD=$PWD/libflushlatency.so MOMENTUM_FLUSH_LATENCY_US=1000 command …
//
// Processes started by the command inherit both variables: a PostgreSQL cluster the
// benchmarks or tests start is slowed the same way.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

static long latency_us(void) {
    static long cached = -1;
    if (cached < 0) {
        const char *text = getenv("MOMENTUM_FLUSH_LATENCY_US");
        long value = text ? strtol(text, NULL, 10) : 0;
        cached = value > 0 && value < 60L * 1000 * 1000 ? value : 0;
    }
    return cached;
}

static void wait_latency(void) {
    long us = latency_us();
    if (us == 0) return;
    struct timespec left = {us / 1000000, (us % 1000000) * 1000};
    int saved = errno;
    while (nanosleep(&left, &left) == -1 && errno == EINTR) {}
    errno = saved;
}

typedef int (*fd_call)(int);
typedef int (*range_call)(int, off64_t, off64_t, unsigned int);
typedef int (*msync_call)(void *, size_t, int);

// The next definition of `name` (libc's), looked up once.
#define REAL(name, type) \
    static type real = NULL; \
    if (!real) real = (type)dlsym(RTLD_NEXT, name)

int fsync(int fd) {
    REAL("fsync", fd_call);
    int result = real(fd);
    wait_latency();
    return result;
}

int fdatasync(int fd) {
    REAL("fdatasync", fd_call);
    int result = real(fd);
    wait_latency();
    return result;
}

int syncfs(int fd) {
    REAL("syncfs", fd_call);
    int result = real(fd);
    wait_latency();
    return result;
}

int sync_file_range(int fd, off64_t offset, off64_t nbytes, unsigned int flags) {
    REAL("sync_file_range", range_call);
    int result = real(fd, offset, nbytes, flags);
    // Only a range written and waited for is a flush; a hint to start writeback is not.
    if (flags & SYNC_FILE_RANGE_WAIT_AFTER) wait_latency();
    return result;
}

int msync(void *address, size_t length, int flags) {
    REAL("msync", msync_call);
    int result = real(address, length, flags);
    if (flags & MS_SYNC) wait_latency();
    return result;
}
