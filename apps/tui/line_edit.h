/* line_edit.h: a one-line text field for the terminal game's prompts,
 * with the editing keys of a shell's line: typing over a selected default,
 * Backspace, Delete, Ctrl-U (clear to the start), Ctrl-K (clear to the
 * end), Ctrl-W (the word before the cursor), the arrows, Home and End
 * (Ctrl-A, Ctrl-E). ASCII only. Pure: the terminal layer maps its keys to
 * these. */
#ifndef CARC_TUI_LINE_EDIT_H
#define CARC_TUI_LINE_EDIT_H

#include <stddef.h>

enum {
    LINE_EDIT_MAX = 512, /* bytes of text, its NUL included (a path) */
    /* Keys with no ASCII code, above every curses key code. */
    LINE_KEY_LEFT = 0x110000,
    LINE_KEY_RIGHT,
    LINE_KEY_HOME,
    LINE_KEY_END,
    LINE_KEY_DELETE,
};

typedef struct line_edit {
    char text[LINE_EDIT_MAX];
    size_t len;    /* strlen(text) */
    size_t cursor; /* 0..len: the byte the next character goes before */
    int selected;  /* the whole text is selected: typing replaces it */
} line_edit;

/* Sets the text (cut to fit) with the cursor at its end; `selected`: the
 * text is a default that the first typed character replaces. */
void line_edit_set(line_edit *e, const char *text, int selected);

/* Applies one key: a printable ASCII character, 8 or 127 (Backspace),
 * 1, 5, 11, 21, 23 (Ctrl-A, E, K, U, W) or a LINE_KEY_*. Returns 1 when
 * the key is an editing key (used, even if nothing changed), else 0 and
 * nothing changes. */
int line_edit_key(line_edit *e, int key);

#endif
