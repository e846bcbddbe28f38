/* saves.h: where saved games go (a folder a user would look in, made as
 * needed) and the shell command that resumes one. No terminal code. */
#ifndef CARC_TUI_SAVES_H
#define CARC_TUI_SAVES_H

#include <stddef.h>

/* The folder for saved games: `override` when not NULL, else
 * $XDG_DATA_HOME/carcassonne/saves, else $HOME/.local/share/carcassonne/saves.
 * Returns 0, or -1 when none can be named (no HOME) or it does not fit. */
int saves_dir(const char *override, char *out, size_t cap);

/* Creates `dir` and its missing parents. Returns 0, or -1 with errno set. */
int saves_make_dir(const char *dir);

/* The file a name typed at the save prompt means: a bare name (no '/')
 * inside `dir`; "~/..." under $HOME; anything else as typed. Returns 0, or
 * -1 when the result does not fit in `cap` bytes. */
int saves_resolve(const char *dir, const char *name, char *out, size_t cap);

/* The file name a name typed at the save prompt means: without the spaces
 * around it, with ".rec" added when it does not end so ("game" is
 * "game.rec"). Returns 0; -1 when it names no file (empty, a folder:
 * "games/", ".", ".."); -2 when the result does not fit in `cap` bytes. */
int saves_file_name(const char *typed, char *out, size_t cap);

/* `path` with a leading $HOME written as "~", for showing. */
void saves_short(const char *path, char *out, size_t cap);

/* `word` as one shell word: as is when it holds only safe characters,
 * else in single quotes. */
void saves_shell_quote(const char *word, char *out, size_t cap);

/* The name that starts this program from a shell: "carcassonne" when the
 * first "carcassonne" on `path_env` (a PATH value, may be NULL) is the
 * program `self` (an absolute path), else `self`. */
void saves_program_name(const char *self, const char *path_env, char *out, size_t cap);

/* "PROGRAM play --load PATH" for the running program (/proc/self/exe),
 * with PATH made absolute and quoted for the shell. */
void saves_resume_command(const char *path, char *out, size_t cap);

#endif
