/* test_static_files.c: the client's files from memory
 * (apps/server/static_files.c) and the request headers they depend on
 * (apps/server/http_headers.c): a folder read whole, only the client's
 * types, the pages that are the index, the gzip copy that inflates back
 * to the file, entity tags; Accept-Encoding and If-None-Match values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <zlib.h>

#include "http_headers.h"
#include "static_files.h"

static void test_accepts_gzip(void **state)
{
    (void)state;
    assert_true(http_accepts_gzip("gzip, deflate, br"));
    assert_true(http_accepts_gzip("br,gzip"));
    assert_true(http_accepts_gzip("GZIP"));
    assert_true(http_accepts_gzip("gzip;q=0.5"));
    assert_true(http_accepts_gzip(" gzip ; q=1 "));
    assert_false(http_accepts_gzip("gzip;q=0"));
    assert_false(http_accepts_gzip("gzip; q=0.000"));
    assert_false(http_accepts_gzip("deflate, br"));
    assert_false(http_accepts_gzip("x-gzip"));
    assert_false(http_accepts_gzip("gzipx"));
    assert_false(http_accepts_gzip(""));
    assert_false(http_accepts_gzip(NULL));
    assert_false(http_accepts_gzip(",,,"));
}

static void test_etag_matches(void **state)
{
    (void)state;
    const char *tag = "\"0123abcd\"";
    assert_true(http_etag_matches("\"0123abcd\"", tag));
    assert_true(http_etag_matches("W/\"0123abcd\"", tag));
    assert_true(http_etag_matches("\"x\", \"0123abcd\"", tag));
    assert_true(http_etag_matches("*", tag));
    assert_false(http_etag_matches("\"0123abce\"", tag));
    assert_false(http_etag_matches("0123abcd", tag));
    assert_false(http_etag_matches("\"0123abcd", tag));
    assert_false(http_etag_matches("", tag));
    assert_false(http_etag_matches(NULL, tag));
    assert_false(http_etag_matches("W/", tag));
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The gzip copy of `f`, inflated: the file's bytes again. */
static void assert_inflates_to_file(const static_file *f)
{
    assert_non_null(f->gz);
    assert_true(f->gz_len < f->len);
    unsigned char *out = malloc(f->len + 16);
    z_stream z;
    memset(&z, 0, sizeof z);
    assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
    z.next_in = f->gz;
    z.avail_in = (uInt)f->gz_len;
    z.next_out = out;
    z.avail_out = (uInt)(f->len + 16);
    assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
    assert_int_equal(z.total_out, f->len);
    assert_memory_equal(out, f->data, f->len);
    inflateEnd(&z);
    free(out);
}

static void test_folder(void **state)
{
    (void)state;
    char dir[] = "/tmp/carc-static-XXXXXX", path[256];
    assert_non_null(mkdtemp(dir));
    char big[4096];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    snprintf(path, sizeof path, "%s/index.html", dir);
    put(path, big);
    snprintf(path, sizeof path, "%s/js", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/js/app.js", dir);
    put(path, "export const x = 1; export const y = 1; export const z = 1;");
    snprintf(path, sizeof path, "%s/js/same.js", dir);
    put(path, "export const x = 1; export const y = 1; export const z = 1;");
    snprintf(path, sizeof path, "%s/secret.db", dir); /* not a type the client uses */
    put(path, "no");
    snprintf(path, sizeof path, "%s/.hidden.js", dir);
    put(path, "no");
    char link[300];
    snprintf(link, sizeof link, "%s/js/link.js", dir);
    assert_int_equal(symlink("/etc/passwd", link), 0);

    char err[256];
    static_files *F = static_files_load(dir, err, sizeof err);
    assert_non_null(F);
    const static_file *index = static_files_find(F, "/index.html");
    assert_non_null(index);
    assert_ptr_equal(static_files_find(F, "/"), index);
    assert_ptr_equal(static_files_find(F, "/rules"), index);
    assert_ptr_equal(static_files_find(F, "/learn/"), index);
    assert_string_equal(index->type, "text/html; charset=utf-8");
    assert_int_equal(index->len, sizeof big - 1);
    assert_inflates_to_file(index);
    const static_file *app = static_files_find(F, "/js/app.js"),
                      *same = static_files_find(F, "/js/same.js");
    assert_non_null(app);
    assert_non_null(same);
    assert_string_equal(app->etag, same->etag); /* the tag is the bytes' */
    assert_string_not_equal(app->etag, index->etag);
    assert_int_equal(strlen(app->etag), 34);
    assert_null(static_files_find(F, "/secret.db"));
    assert_null(static_files_find(F, "/.hidden.js"));
    assert_null(static_files_find(F, "/js/link.js"));
    assert_null(static_files_find(F, "/js/../index.html"));
    assert_null(static_files_find(F, "/rules/index.html"));
    assert_null(static_files_find(F, ""));
    /* A document of the server's own. */
    assert_int_equal(static_files_add(F, "/api/tiles", "application/json", big, 100), 0);
    const static_file *tiles = static_files_find(F, "/api/tiles");
    assert_non_null(tiles);
    assert_int_equal(tiles->len, 100);
    assert_inflates_to_file(tiles);
    static_files_free(F);

    /* No folder: documents of the server's own only. */
    F = static_files_load(NULL, err, sizeof err);
    assert_non_null(F);
    assert_null(static_files_find(F, "/"));
    static_files_free(F);
    /* A folder that is not there. */
    snprintf(path, sizeof path, "%s/missing", dir);
    assert_null(static_files_load(path, err, sizeof err));
    assert_non_null(strstr(err, "missing"));

    unlink(link);
    snprintf(path, sizeof path, "%s/js/app.js", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/js/same.js", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/js", dir);
    rmdir(path);
    for (const char *name = "index.html"; name; name = strcmp(name, "index.html") == 0 ? "secret.db"
                                                       : strcmp(name, "secret.db") == 0
                                                           ? ".hidden.js"
                                                           : NULL) {
        snprintf(path, sizeof path, "%s/%s", dir, name);
        unlink(path);
    }
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accepts_gzip),
        cmocka_unit_test(test_etag_matches),
        cmocka_unit_test(test_folder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
