#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// CURLMsg (curl/multi.h): { CURLMSG msg; CURL *easy_handle; union { void *whatever; CURLcode result; } data; }
struct ccurl_message {
    int msg;
    ccurl_easy *easy;
    union {
        void *whatever;
        int result;
    } data;
};
#define CCURLMSG_DONE 1
#define CCURL_GLOBAL_ALL 3

static struct {
    int (*global_init)(long);
    ccurl_easy *(*easy_init)(void);
    void (*easy_cleanup)(ccurl_easy *);
    int (*easy_setopt)(ccurl_easy *, int, ...);
    int (*easy_getinfo)(ccurl_easy *, int, ...);
    const char *(*easy_strerror)(int);
    ccurl_slist *(*slist_append)(ccurl_slist *, const char *);
    void (*slist_free_all)(ccurl_slist *);
    ccurl_multi *(*multi_init)(void);
    int (*multi_cleanup)(ccurl_multi *);
    int (*multi_add_handle)(ccurl_multi *, ccurl_easy *);
    int (*multi_remove_handle)(ccurl_multi *, ccurl_easy *);
    int (*multi_perform)(ccurl_multi *, int *);
    int (*multi_poll)(ccurl_multi *, void *, unsigned int, int, int *);
    int (*multi_wakeup)(ccurl_multi *);
    struct ccurl_message *(*multi_info_read)(ccurl_multi *, int *);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_status = -1;
static char load_error[256] = "";

static void *symbol(void *library, const char *name) {
    void *found = dlsym(library, name);
    if (found == NULL && load_error[0] == '\0') {
        snprintf(load_error, sizeof load_error, "libcurl.so.4 has no %s (libcurl 7.68 or later is needed)", name);
    }
    return found;
}

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "libcurl.so.4 could not be loaded: %s", reason ? reason : "unknown reason");
        return;
    }
    curl.global_init = symbol(library, "curl_global_init");
    curl.easy_init = symbol(library, "curl_easy_init");
    curl.easy_cleanup = symbol(library, "curl_easy_cleanup");
    curl.easy_setopt = symbol(library, "curl_easy_setopt");
    curl.easy_getinfo = symbol(library, "curl_easy_getinfo");
    curl.easy_strerror = symbol(library, "curl_easy_strerror");
    curl.slist_append = symbol(library, "curl_slist_append");
    curl.slist_free_all = symbol(library, "curl_slist_free_all");
    curl.multi_init = symbol(library, "curl_multi_init");
    curl.multi_cleanup = symbol(library, "curl_multi_cleanup");
    curl.multi_add_handle = symbol(library, "curl_multi_add_handle");
    curl.multi_remove_handle = symbol(library, "curl_multi_remove_handle");
    curl.multi_perform = symbol(library, "curl_multi_perform");
    curl.multi_poll = symbol(library, "curl_multi_poll");
    curl.multi_wakeup = symbol(library, "curl_multi_wakeup");
    curl.multi_info_read = symbol(library, "curl_multi_info_read");
    if (load_error[0] != '\0') return;
    // curl_global_init is reference-counted (FoundationNetworking calls it too) and thread-safe
    // from libcurl 7.84; the once-guard keeps ours to one call.
    if (curl.global_init(CCURL_GLOBAL_ALL) != CCURLE_OK) {
        snprintf(load_error, sizeof load_error, "curl_global_init failed");
        return;
    }
    load_status = 0;
}

int ccurl_load(void) {
    pthread_once(&load_once, load);
    return load_status;
}

const char *ccurl_load_error(void) { return load_error; }

// Every function below is called only after ccurl_load() returned 0.

ccurl_easy *ccurl_easy_init(void) { return curl.easy_init(); }
void ccurl_easy_cleanup(ccurl_easy *easy) { curl.easy_cleanup(easy); }
int ccurl_easy_setopt_long(ccurl_easy *easy, int option, long value) { return curl.easy_setopt(easy, option, value); }
int ccurl_easy_setopt_pointer(ccurl_easy *easy, int option, const void *value) { return curl.easy_setopt(easy, option, value); }
int ccurl_easy_setopt_callback(ccurl_easy *easy, int option, ccurl_write_callback callback) {
    return curl.easy_setopt(easy, option, callback);
}
int ccurl_easy_getinfo_long(ccurl_easy *easy, int info, long *value) { return curl.easy_getinfo(easy, info, value); }
const char *ccurl_easy_strerror(int code) { return curl.easy_strerror(code); }

ccurl_slist *ccurl_slist_append(ccurl_slist *list, const char *line) { return curl.slist_append(list, line); }
void ccurl_slist_free_all(ccurl_slist *list) { curl.slist_free_all(list); }

ccurl_multi *ccurl_multi_init(void) { return curl.multi_init(); }
int ccurl_multi_cleanup(ccurl_multi *multi) { return curl.multi_cleanup(multi); }
int ccurl_multi_add_handle(ccurl_multi *multi, ccurl_easy *easy) { return curl.multi_add_handle(multi, easy); }
int ccurl_multi_remove_handle(ccurl_multi *multi, ccurl_easy *easy) { return curl.multi_remove_handle(multi, easy); }
int ccurl_multi_perform(ccurl_multi *multi, int *running) { return curl.multi_perform(multi, running); }
int ccurl_multi_poll(ccurl_multi *multi, int timeout_ms, int *ready) { return curl.multi_poll(multi, NULL, 0, timeout_ms, ready); }
int ccurl_multi_wakeup(ccurl_multi *multi) { return curl.multi_wakeup(multi); }

ccurl_easy *ccurl_multi_next_done(ccurl_multi *multi, int *result) {
    int left = 0;
    struct ccurl_message *message;
    while ((message = curl.multi_info_read(multi, &left)) != NULL) {
        if (message->msg == CCURLMSG_DONE) {
            *result = message->data.result;
            return message->easy;
        }
    }
    return NULL;
}
