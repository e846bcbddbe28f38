/* static_files.c: the browser client's files, served from memory
 * (static_files.h). */
#include "static_files.h"

#include <dirent.h>
#include <errno.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#define ZLIB_CONST /* next_in reads const bytes */
#include <zlib.h>

enum { MAX_DEPTH = 4, PATH_BYTES = 1024 };

struct static_files {
    static_file files[STATIC_MAX_FILES];
    int n;
    size_t bytes;
};

static const struct {
    const char *ext, *type;
    int compress;
} types[] = {
    {".html", "text/html; charset=utf-8", 1},
    {".js", "text/javascript; charset=utf-8", 1},
    {".mjs", "text/javascript; charset=utf-8", 1},
    {".css", "text/css; charset=utf-8", 1},
    {".svg", "image/svg+xml", 1},
    {".json", "application/json", 1},
    {".txt", "text/plain; charset=utf-8", 1},
    {".ico", "image/x-icon", 1},
    {".png", "image/png", 0},
};

/* The type of a file named `name` (-1: not one the client uses). */
static int type_of(const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        size_t e = strlen(types[i].ext);
        if (n > e && strcmp(name + n - e, types[i].ext) == 0)
            return (int)i;
    }
    return -1;
}

/* `data` gzip-compressed into *out (malloc'd); 0, or -1 when zlib fails. */
static int gzip(const unsigned char *data, size_t len, unsigned char **out, size_t *out_len)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK)
        return -1;
    uLong cap = deflateBound(&z, (uLong)len);
    unsigned char *buf = malloc(cap ? cap : 1);
    if (!buf) {
        deflateEnd(&z);
        return -1;
    }
    z.next_in = data;
    z.avail_in = (uInt)len;
    z.next_out = buf;
    z.avail_out = (uInt)cap;
    int r = deflate(&z, Z_FINISH);
    *out_len = z.total_out;
    deflateEnd(&z);
    if (r != Z_STREAM_END) {
        free(buf);
        return -1;
    }
    *out = buf;
    return 0;
}

static int add(static_files *F, const char *path, const char *type, int compress,
               unsigned char *data, size_t len)
{
    if (F->n >= STATIC_MAX_FILES || F->bytes + len > STATIC_MAX_BYTES)
        return -1;
    static_file *f = &F->files[F->n];
    memset(f, 0, sizeof *f);
    f->path = strdup(path);
    if (!f->path)
        return -1;
    f->type = type;
    f->data = data;
    f->len = len;
    unsigned char *gz = NULL;
    size_t gz_len = 0;
    if (compress && len > 0 && gzip(data, len, &gz, &gz_len) == 0 && gz_len < len) {
        f->gz = gz;
        f->gz_len = gz_len;
    } else {
        free(gz);
    }
    unsigned char digest[16];
    crypto_generichash(digest, sizeof digest, data, len, NULL, 0);
    f->etag[0] = '"';
    sodium_bin2hex(f->etag + 1, sizeof f->etag - 2, digest, sizeof digest);
    f->etag[33] = '"';
    f->etag[34] = '\0';
    F->bytes += len;
    F->n++;
    return 0;
}

int static_files_add(static_files *F, const char *path, const char *type, const void *data,
                     size_t len)
{
    unsigned char *copy = malloc(len ? len : 1);
    if (!copy)
        return -1;
    memcpy(copy, data, len);
    if (add(F, path, type, 1, copy, len) != 0) {
        free(copy);
        return -1;
    }
    return 0;
}

/* The whole of file `full` into *out; -1 when it cannot be read or is too
 * big. */
static int read_whole(const char *full, size_t size, unsigned char **out)
{
    FILE *fp = fopen(full, "rb");
    if (!fp)
        return -1;
    unsigned char *buf = malloc(size ? size : 1);
    size_t got = buf ? fread(buf, 1, size, fp) : 0;
    int extra = fgetc(fp) != EOF; /* it grew while being read */
    fclose(fp);
    if (!buf || got != size || extra) {
        free(buf);
        return -1;
    }
    *out = buf;
    return 0;
}

/* Reads folder `dir` (`url`: its path as asked for, "" at the top). */
static int load_dir(static_files *F, const char *dir, const char *url, int depth, char *err,
                    size_t errcap)
{
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errcap, "%s: %s", dir, strerror(errno));
        return -1;
    }
    int rc = 0;
    const struct dirent *e;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "node_modules") == 0)
            continue;
        char full[PATH_BYTES], path[PATH_BYTES];
        struct stat st;
        if (snprintf(full, sizeof full, "%s/%s", dir, e->d_name) >= (int)sizeof full ||
            snprintf(path, sizeof path, "%s/%s", url, e->d_name) >= (int)sizeof path ||
            lstat(full, &st) != 0)
            continue; /* a name too long to serve, or gone */
        if (S_ISDIR(st.st_mode) && depth < MAX_DEPTH) {
            rc = load_dir(F, full, path, depth + 1, err, errcap);
            continue;
        }
        int t = S_ISREG(st.st_mode) ? type_of(e->d_name) : -1;
        if (t < 0)
            continue;
        unsigned char *data = NULL;
        if (F->n >= STATIC_MAX_FILES || F->bytes + (size_t)st.st_size > STATIC_MAX_BYTES) {
            snprintf(err, errcap, "%s: more than %d files or %d bytes", dir, STATIC_MAX_FILES,
                     STATIC_MAX_BYTES);
            rc = -1;
        } else if (read_whole(full, (size_t)st.st_size, &data) != 0) {
            snprintf(err, errcap, "%s: not read", full);
            rc = -1;
        } else if (add(F, path, types[t].type, types[t].compress, data, (size_t)st.st_size) != 0) {
            free(data);
            snprintf(err, errcap, "%s: out of memory", full);
            rc = -1;
        }
    }
    closedir(d);
    return rc;
}

static_files *static_files_load(const char *dir, char *err, size_t errcap)
{
    static_files *F = calloc(1, sizeof *F);
    if (!F || sodium_init() < 0) {
        snprintf(err, errcap, "out of memory");
        free(F);
        return NULL;
    }
    if (dir && load_dir(F, dir, "", 0, err, errcap) != 0) {
        static_files_free(F);
        return NULL;
    }
    return F;
}

void static_files_free(static_files *F)
{
    if (!F)
        return;
    for (int i = 0; i < F->n; i++) {
        free(F->files[i].path);
        free(F->files[i].data);
        free(F->files[i].gz);
    }
    free(F);
}

/* The client's pages with an address of their own: its index page. */
static const char *const pages[] = {"/",       "/rules",   "/rules/",  "/learn",
                                    "/learn/", "/puzzles", "/puzzles/"};

const static_file *static_files_find(const static_files *F, const char *path)
{
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++)
        if (strcmp(path, pages[i]) == 0)
            path = "/index.html";
    for (int i = 0; F && i < F->n; i++)
        if (strcmp(F->files[i].path, path) == 0)
            return &F->files[i];
    return NULL;
}
