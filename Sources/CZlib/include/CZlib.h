// The few zlib calls of the catalogue's gzip reader (and the stand-in TMDB's gzip writer), declared
// here and resolved at run time from libz.so.1 (dlopen), as CCurl does for libcurl: no zlib headers
// or development package are needed to build.
//
// The z_stream lives in C (czlib_stream), so Swift never lays out zlib's structure; the values below
// are zlib's stable ABI (zlib.h, https://zlib.net/manual.html).
#ifndef MOVIESD_CZLIB_H
#define MOVIESD_CZLIB_H

#include <stddef.h>

// Return codes (zlib.h).
#define CZ_OK 0
#define CZ_STREAM_END 1
#define CZ_NEED_DICT 2
#define CZ_ERRNO (-1)
#define CZ_STREAM_ERROR (-2)
#define CZ_DATA_ERROR (-3)
#define CZ_MEM_ERROR (-4)
#define CZ_BUF_ERROR (-5)

typedef struct czlib_stream czlib_stream;

/// Loads libz.so.1 once. Returns 0 on success; otherwise the reason is in czlib_load_error().
/// Safe to call from any thread, any number of times.
int czlib_load(void);
/// Why czlib_load failed ("" when it did not).
const char *czlib_load_error(void);

/// A gzip decoder (inflateInit2 with windowBits 16 + 15: a gzip header and trailer, CRC checked).
/// NULL when zlib is not loaded or out of memory.
czlib_stream *czlib_inflater_new(void);
/// A gzip encoder at `level` (1 fastest … 9 smallest). NULL when zlib is not loaded or out of memory.
czlib_stream *czlib_deflater_new(int level);
/// Ends and frees a stream made by either constructor.
void czlib_stream_free(czlib_stream *stream);

/// Decodes from `input` (`input_length` bytes) into `output` (`output_capacity` bytes); sets what
/// was consumed and produced. Returns CZ_OK (call again), CZ_STREAM_END (the gzip member ended:
/// its CRC and length matched), CZ_BUF_ERROR (no progress possible: more input needed) or an error.
int czlib_inflate(czlib_stream *stream, const void *input, size_t input_length, size_t *consumed,
                  void *output, size_t output_capacity, size_t *produced);
/// Resets an inflater for the next gzip member of a multi-member file.
int czlib_inflate_reset(czlib_stream *stream);

/// Encodes `input` into `output`; `finish` non-zero ends the stream (Z_FINISH). Returns CZ_OK,
/// CZ_STREAM_END (finished and all written), CZ_BUF_ERROR (output full or nothing to do) or an error.
int czlib_deflate(czlib_stream *stream, const void *input, size_t input_length, size_t *consumed,
                  void *output, size_t output_capacity, size_t *produced, int finish);

/// zlib's message for the stream's last error ("" when none).
const char *czlib_message(czlib_stream *stream);

#endif
