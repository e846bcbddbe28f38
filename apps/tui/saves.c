/* saves.c: the folder of saved games and the command that resumes one. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "saves.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fits(int n, size_t cap)
{
    return n >= 0 && (size_t)n < cap;
}

int saves_dir(const char *override, char *out, size_t cap)
{
    if (override && *override)
        return fits(snprintf(out, cap, "%s", override), cap) ? 0 : -1;
    const char *data = getenv("XDG_DATA_HOME");
    if (data && data[0] == '/') /* the spec ignores relative values */
        return fits(snprintf(out, cap, "%s/carcassonne/saves", data), cap) ? 0 : -1;
    const char *home = getenv("HOME");
    if (!home || !*home)
        return -1;
    return fits(snprintf(out, cap, "%s/.local/share/carcassonne/saves", home), cap) ? 0 : -1;
}

int saves_make_dir(const char *dir)
{
    char path[PATH_MAX];
    if (!fits(snprintf(path, sizeof path, "%s", dir), sizeof path)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *c = path + 1; *c; c++) {
        if (*c != '/')
            continue;
        *c = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST)
            return -1;
        *c = '/';
    }
    if (mkdir(path, 0755) != 0 && errno != EEXIST)
        return -1;
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

int saves_resolve(const char *dir, const char *name, char *out, size_t cap)
{
    const char *home = getenv("HOME");
    int n;
    if (!strchr(name, '/'))
        n = snprintf(out, cap, "%s/%s", dir, name);
    else if (strncmp(name, "~/", 2) == 0 && home && *home)
        n = snprintf(out, cap, "%s%s", home, name + 1);
    else
        n = snprintf(out, cap, "%s", name);
    return fits(n, cap) ? 0 : -1;
}

int saves_file_name(const char *typed, char *out, size_t cap)
{
    while (*typed == ' ')
        typed++;
    size_t len = strlen(typed);
    while (len > 0 && typed[len - 1] == ' ')
        len--;
    const char *last = typed;
    for (size_t i = 0; i < len; i++)
        if (typed[i] == '/')
            last = typed + i + 1;
    size_t last_len = len - (size_t)(last - typed);
    if (last_len == 0 || (last_len == 1 && last[0] == '.') ||
        (last_len == 2 && strncmp(last, "..", 2) == 0))
        return -1;
    int has_ext = last_len >= 4 && strncmp(typed + len - 4, ".rec", 4) == 0;
    int n = snprintf(out, cap, "%.*s%s", (int)len, typed, has_ext ? "" : ".rec");
    return fits(n, cap) ? 0 : -2;
}

void saves_short(const char *path, char *out, size_t cap)
{
    const char *home = getenv("HOME");
    size_t len = home ? strlen(home) : 0;
    if (len > 1 && strncmp(path, home, len) == 0 && path[len] == '/')
        snprintf(out, cap, "~%s", path + len);
    else
        snprintf(out, cap, "%s", path);
}

void saves_shell_quote(const char *word, char *out, size_t cap)
{
    static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                               "0123456789/._-+=:,@%";
    if (cap == 0)
        return;
    if (*word && strspn(word, safe) == strlen(word)) {
        snprintf(out, cap, "%s", word);
        return;
    }
    size_t n = 0;
    out[n++] = '\'';
    for (const char *c = word; *c && n + 5 < cap; c++) {
        if (*c == '\'') { /* close, an escaped quote, open again */
            memcpy(out + n, "'\\''", 4);
            n += 4;
        } else {
            out[n++] = *c;
        }
    }
    if (n + 1 < cap)
        out[n++] = '\'';
    out[n < cap ? n : cap - 1] = '\0';
}

/* The first "carcassonne" on `path_env` that can be run, into `out`. */
static int find_on_path(const char *path_env, char *out, size_t cap)
{
    for (const char *dir = path_env; dir && *dir;) {
        size_t len = strcspn(dir, ":");
        if (len > 0 && fits(snprintf(out, cap, "%.*s/carcassonne", (int)len, dir), cap) &&
            access(out, X_OK) == 0)
            return 0;
        dir += len + (dir[len] == ':');
    }
    return -1;
}

void saves_program_name(const char *self, const char *path_env, char *out, size_t cap)
{
    char found[PATH_MAX];
    snprintf(out, cap, "%s", self);
    if (find_on_path(path_env, found, sizeof found) != 0)
        return;
    char *real = realpath(found, NULL);
    if (real && strcmp(real, self) == 0)
        snprintf(out, cap, "carcassonne");
    free(real);
}

void saves_resume_command(const char *path, char *out, size_t cap)
{
    char self[PATH_MAX], program[PATH_MAX], qprogram[PATH_MAX + 64];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        snprintf(self, sizeof self, "carcassonne");
    else
        self[n] = '\0';
    saves_program_name(self, getenv("PATH"), program, sizeof program);
    saves_shell_quote(program, qprogram, sizeof qprogram);
    char *full = realpath(path, NULL);
    char qpath[PATH_MAX + 64];
    saves_shell_quote(full ? full : path, qpath, sizeof qpath);
    free(full);
    snprintf(out, cap, "%s play --load %s", qprogram, qpath);
}
