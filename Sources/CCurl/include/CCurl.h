// The few libcurl calls of moviesd's HTTP transport (Networking's CurlTransport), declared here
// and resolved at run time from libcurl.so.4 (dlopen), the library FoundationNetworking already
// loads: no libcurl headers or development package are needed to build.
//
// Values below are libcurl's stable ABI (curl/curl.h, curl/multi.h; https://curl.se/libcurl/c/).
#ifndef MOVIESD_CCURL_H
#define MOVIESD_CCURL_H

#include <stddef.h>

typedef struct ccurl_easy ccurl_easy;
typedef struct ccurl_multi ccurl_multi;
typedef struct ccurl_slist ccurl_slist;

// CURLoption values (CURLOPTTYPE_LONG 0, OBJECTPOINT 10000, FUNCTIONPOINT 20000).
#define CCURLOPT_WRITEDATA 10001
#define CCURLOPT_URL 10002
#define CCURLOPT_ERRORBUFFER 10010
#define CCURLOPT_WRITEFUNCTION 20011
#define CCURLOPT_HTTPHEADER 10023
#define CCURLOPT_HEADERDATA 10029
#define CCURLOPT_CUSTOMREQUEST 10036
#define CCURLOPT_NOBODY 44
#define CCURLOPT_POSTFIELDSIZE 60
#define CCURLOPT_HEADERFUNCTION 20079
#define CCURLOPT_HTTPGET 80
#define CCURLOPT_NOSIGNAL 99
#define CCURLOPT_ACCEPT_ENCODING 10102
#define CCURLOPT_TIMEOUT_MS 155
#define CCURLOPT_CONNECTTIMEOUT_MS 156
#define CCURLOPT_COPYPOSTFIELDS 10165
#define CCURLOPT_PROTOCOLS_STR 10318

// CURLINFO values (CURLINFO_LONG 0x200000).
#define CCURLINFO_RESPONSE_CODE 0x200002
#define CCURLINFO_OS_ERRNO 0x200019

// CURLcode values the transport tells apart.
#define CCURLE_OK 0
#define CCURLE_UNSUPPORTED_PROTOCOL 1
#define CCURLE_URL_MALFORMAT 3
#define CCURLE_COULDNT_RESOLVE_PROXY 5
#define CCURLE_COULDNT_RESOLVE_HOST 6
#define CCURLE_COULDNT_CONNECT 7
#define CCURLE_WEIRD_SERVER_REPLY 8
#define CCURLE_PARTIAL_FILE 18
#define CCURLE_OPERATION_TIMEDOUT 28
#define CCURLE_SSL_CONNECT_ERROR 35
#define CCURLE_GOT_NOTHING 52
#define CCURLE_SEND_ERROR 55
#define CCURLE_RECV_ERROR 56
#define CCURLE_SSL_CERTPROBLEM 58
#define CCURLE_SSL_CIPHER 59
#define CCURLE_PEER_FAILED_VERIFICATION 60
#define CCURLE_BAD_CONTENT_ENCODING 61
#define CCURLE_SSL_CACERT_BADFILE 77
#define CCURLE_SSL_ISSUER_ERROR 83
#define CCURLE_HTTP2 16
#define CCURLE_HTTP2_STREAM 92

// CURL_ERROR_SIZE: the error buffer's size.
#define CCURL_ERROR_SIZE 256

/// A write or header callback: `size * count` bytes at `data`; returns the bytes taken.
typedef size_t (*ccurl_write_callback)(char *data, size_t size, size_t count, void *context);

/// Loads libcurl.so.4 and runs curl_global_init once. Returns 0 on success; otherwise the reason
/// is in ccurl_load_error(). Safe to call from any thread, any number of times.
int ccurl_load(void);
/// Why ccurl_load failed ("" when it did not).
const char *ccurl_load_error(void);

ccurl_easy *ccurl_easy_init(void);
void ccurl_easy_cleanup(ccurl_easy *easy);
int ccurl_easy_setopt_long(ccurl_easy *easy, int option, long value);
int ccurl_easy_setopt_pointer(ccurl_easy *easy, int option, const void *value);
int ccurl_easy_setopt_callback(ccurl_easy *easy, int option, ccurl_write_callback callback);
int ccurl_easy_getinfo_long(ccurl_easy *easy, int info, long *value);
const char *ccurl_easy_strerror(int code);

ccurl_slist *ccurl_slist_append(ccurl_slist *list, const char *line);
void ccurl_slist_free_all(ccurl_slist *list);

ccurl_multi *ccurl_multi_init(void);
int ccurl_multi_cleanup(ccurl_multi *multi);
int ccurl_multi_add_handle(ccurl_multi *multi, ccurl_easy *easy);
int ccurl_multi_remove_handle(ccurl_multi *multi, ccurl_easy *easy);
int ccurl_multi_perform(ccurl_multi *multi, int *running);
/// Waits until a transfer's socket is ready, libcurl's next timeout, `timeout_ms`, or
/// ccurl_multi_wakeup (curl_multi_poll: it waits only for what each transfer needs).
int ccurl_multi_poll(ccurl_multi *multi, int timeout_ms, int *ready);
/// Wakes a thread blocked in ccurl_multi_poll; the one call that is safe from any thread.
int ccurl_multi_wakeup(ccurl_multi *multi);
/// The next finished transfer (CURLMSG_DONE) and its CURLcode in `result`; NULL when none.
ccurl_easy *ccurl_multi_next_done(ccurl_multi *multi, int *result);

#endif
