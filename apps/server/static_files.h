/* static_files.h: the browser client's files, served from memory. They
 * are read once when the server starts (the client's folder, and
 * documents the server makes itself such as the tile catalogue), each
 * kept as it is and gzip-compressed (zlib), with an entity tag (a digest
 * of its bytes): a browser that accepts gzip gets the compressed bytes,
 * and a browser that already holds a file gets 304 Not Modified. */
#ifndef CARC_STATIC_FILES_H
#define CARC_STATIC_FILES_H

#include <stddef.h>

typedef struct static_files static_files;

typedef struct static_file {
    char *path;          /* as asked for: "/index.html", "/js/app.js" */
    const char *type;    /* its Content-Type */
    unsigned char *data; /* its bytes */
    size_t len;
    unsigned char *gz; /* gzip-compressed, or NULL when that is no smaller */
    size_t gz_len;
    char etag[2 + 32 + 1]; /* "\"" 32 hexadecimal digits "\"" */
} static_file;

enum {
    STATIC_MAX_FILES = 256,             /* files in the client's folder, at most */
    STATIC_MAX_BYTES = 16 * 1024 * 1024 /* their bytes, at most */
};

/* Reads the files of folder `dir` (and its sub-folders) whose names end in
 * a type the client uses (.html .js .mjs .css .svg .png .json .ico .txt;
 * `dir` NULL: none, for documents added by static_files_add() only);
 * NULL with a message in `err` when the folder cannot be read or holds
 * more than STATIC_MAX_FILES files or STATIC_MAX_BYTES bytes. */
static_files *static_files_load(const char *dir, char *err, size_t errcap);

/* Adds a document made by the server (`data`, copied) at `path`; -1 when
 * out of memory or full. */
int static_files_add(static_files *F, const char *path, const char *type, const void *data,
                     size_t len);

void static_files_free(static_files *F);

/* The file a request for `path` (the URI's path, no query) names: "/"
 * and the client's own pages ("/rules", "/learn") are "/index.html".
 * NULL: none. */
const static_file *static_files_find(const static_files *F, const char *path);

#endif
