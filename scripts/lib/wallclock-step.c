/*
 * A wall-clock step for one process, for scripts/soak's clock stage: preloaded (LD_PRELOAD), it
 * adds the whole seconds written in the file $WALLCLOCK_STEP_FILE (e.g. -3600) to CLOCK_REALTIME
 * and its coarse variant, gettimeofday() and time(), read afresh at each call. Nothing else moves:
 * CLOCK_MONOTONIC and CLOCK_BOOTTIME, and the timers on them, are untouched, as when an
 * administrator or NTP steps a real system's clock. (libfaketime also re-arms monotonic timers by
 * its offset, which stalls every sleep after a step back: not what a real step does.)
 *
 * Built by scripts/soak: cc -shared -fPIC -O2 -o wallclock-step.so wallclock-step.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* The step in seconds, read from the file each time (no allocation: safe in any context). */
static long step_seconds(void) {
    const char *path = getenv("WALLCLOCK_STEP_FILE");
    if (path == NULL) return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char text[32];
    ssize_t length = read(fd, text, sizeof text - 1);
    close(fd);
    if (length <= 0) return 0;
    text[length] = '\0';
    return strtol(text, NULL, 10);
}

int clock_gettime(clockid_t clock, struct timespec *time_spec) {
    static int (*real)(clockid_t, struct timespec *);
    if (real == NULL) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    int result = real(clock, time_spec);
    if (result == 0 && time_spec != NULL && (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE)) {
        time_spec->tv_sec += step_seconds();
    }
    return result;
}

int gettimeofday(struct timeval *restrict value, void *restrict zone) {
    static int (*real)(struct timeval *restrict, void *restrict);
    if (real == NULL) real = (int (*)(struct timeval *restrict, void *restrict))dlsym(RTLD_NEXT, "gettimeofday");
    int result = real(value, zone);
    if (result == 0 && value != NULL) value->tv_sec += step_seconds();
    return result;
}

time_t time(time_t *out) {
    struct timespec now;
    if (clock_gettime(CLOCK_REALTIME, &now) != 0) return (time_t)-1;
    if (out != NULL) *out = now.tv_sec;
    return now.tv_sec;
}
