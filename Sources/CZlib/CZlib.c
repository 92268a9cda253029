#include "CZlib.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// z_stream (zlib.h), the 64-bit Linux layout of zlib 1.2: { next_in, avail_in, total_in, next_out,
// avail_out, total_out, msg, state, zalloc, zfree, opaque, data_type, adler, reserved }.
typedef struct {
    const unsigned char *next_in;
    unsigned int avail_in;
    unsigned long total_in;
    unsigned char *next_out;
    unsigned int avail_out;
    unsigned long total_out;
    const char *msg;
    void *state;
    void *zalloc;
    void *zfree;
    void *opaque;
    int data_type;
    unsigned long adler;
    unsigned long reserved;
} z_stream_abi;

#define CZ_NO_FLUSH 0
#define CZ_FINISH 4
#define CZ_DEFLATED 8
#define CZ_DEFAULT_STRATEGY 0

struct czlib_stream {
    z_stream_abi z;
    int inflating;
};

static struct {
    const char *(*version)(void);
    int (*inflate_init2)(z_stream_abi *, int, const char *, int);
    int (*inflate)(z_stream_abi *, int);
    int (*inflate_reset)(z_stream_abi *);
    int (*inflate_end)(z_stream_abi *);
    int (*deflate_init2)(z_stream_abi *, int, int, int, int, int, const char *, int);
    int (*deflate)(z_stream_abi *, int);
    int (*deflate_end)(z_stream_abi *);
} zlib;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_status = -1;
static char load_error[256] = "";

static void *symbol(void *library, const char *name) {
    void *found = dlsym(library, name);
    if (found == NULL && load_error[0] == '\0') {
        snprintf(load_error, sizeof load_error, "libz.so.1 has no %s", name);
    }
    return found;
}

static void load(void) {
    void *library = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "libz.so.1 could not be loaded: %s", reason ? reason : "unknown reason");
        return;
    }
    zlib.version = symbol(library, "zlibVersion");
    zlib.inflate_init2 = symbol(library, "inflateInit2_");
    zlib.inflate = symbol(library, "inflate");
    zlib.inflate_reset = symbol(library, "inflateReset");
    zlib.inflate_end = symbol(library, "inflateEnd");
    zlib.deflate_init2 = symbol(library, "deflateInit2_");
    zlib.deflate = symbol(library, "deflate");
    zlib.deflate_end = symbol(library, "deflateEnd");
    if (load_error[0] != '\0') return;
    // The layout above is zlib 1.x's; refuse another major version rather than corrupt memory.
    const char *version = zlib.version();
    if (version == NULL || version[0] != '1') {
        snprintf(load_error, sizeof load_error, "libz.so.1 is version %s; zlib 1.x is needed", version ? version : "unknown");
        return;
    }
    load_status = 0;
}

int czlib_load(void) {
    pthread_once(&load_once, load);
    return load_status;
}

const char *czlib_load_error(void) { return load_error; }

static czlib_stream *new_stream(void) {
    if (czlib_load() != 0) return NULL;
    czlib_stream *stream = calloc(1, sizeof *stream);
    return stream;
}

czlib_stream *czlib_inflater_new(void) {
    czlib_stream *stream = new_stream();
    if (stream == NULL) return NULL;
    // windowBits 15 + 16: "decode only the gzip format" (zlib manual, inflateInit2).
    if (zlib.inflate_init2(&stream->z, 15 + 16, zlib.version(), (int)sizeof(z_stream_abi)) != CZ_OK) {
        free(stream);
        return NULL;
    }
    stream->inflating = 1;
    return stream;
}

czlib_stream *czlib_deflater_new(int level) {
    czlib_stream *stream = new_stream();
    if (stream == NULL) return NULL;
    // windowBits 15 + 16: "write a simple gzip header and trailer" (zlib manual, deflateInit2).
    if (zlib.deflate_init2(&stream->z, level, CZ_DEFLATED, 15 + 16, 8, CZ_DEFAULT_STRATEGY, zlib.version(), (int)sizeof(z_stream_abi)) != CZ_OK) {
        free(stream);
        return NULL;
    }
    stream->inflating = 0;
    return stream;
}

void czlib_stream_free(czlib_stream *stream) {
    if (stream == NULL) return;
    if (stream->inflating) zlib.inflate_end(&stream->z); else zlib.deflate_end(&stream->z);
    free(stream);
}

static unsigned int clamp(size_t length) { return length > UINT_MAX ? UINT_MAX : (unsigned int)length; }

int czlib_inflate(czlib_stream *stream, const void *input, size_t input_length, size_t *consumed,
                  void *output, size_t output_capacity, size_t *produced) {
    stream->z.next_in = input;
    stream->z.avail_in = clamp(input_length);
    stream->z.next_out = output;
    stream->z.avail_out = clamp(output_capacity);
    unsigned int in_before = stream->z.avail_in, out_before = stream->z.avail_out;
    int code = zlib.inflate(&stream->z, CZ_NO_FLUSH);
    *consumed = in_before - stream->z.avail_in;
    *produced = out_before - stream->z.avail_out;
    return code;
}

int czlib_inflate_reset(czlib_stream *stream) { return zlib.inflate_reset(&stream->z); }

int czlib_deflate(czlib_stream *stream, const void *input, size_t input_length, size_t *consumed,
                  void *output, size_t output_capacity, size_t *produced, int finish) {
    stream->z.next_in = input;
    stream->z.avail_in = clamp(input_length);
    stream->z.next_out = output;
    stream->z.avail_out = clamp(output_capacity);
    unsigned int in_before = stream->z.avail_in, out_before = stream->z.avail_out;
    int code = zlib.deflate(&stream->z, finish ? CZ_FINISH : CZ_NO_FLUSH);
    *consumed = in_before - stream->z.avail_in;
    *produced = out_before - stream->z.avail_out;
    return code;
}

const char *czlib_message(czlib_stream *stream) {
    return (stream != NULL && stream->z.msg != NULL) ? stream->z.msg : "";
}
