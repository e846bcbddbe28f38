/* line_edit.c: a one-line text field (see line_edit.h). */
#include "line_edit.h"

#include <string.h>

enum { CTRL_A = 1, CTRL_E = 5, BACKSPACE = 8, CTRL_K = 11, CTRL_U = 21, CTRL_W = 23, DEL = 127 };

void line_edit_set(line_edit *e, const char *text, int selected)
{
    size_t n = strlen(text);
    if (n >= sizeof e->text)
        n = sizeof e->text - 1;
    memcpy(e->text, text, n);
    e->text[n] = '\0';
    e->len = e->cursor = n;
    e->selected = selected && n > 0;
}

/* Removes bytes [from, to) of the text; the cursor goes to `from`. */
static void cut(line_edit *e, size_t from, size_t to)
{
    memmove(e->text + from, e->text + to, e->len - to + 1);
    e->len -= to - from;
    e->cursor = from;
}

static void insert(line_edit *e, char ch)
{
    if (e->len + 1 >= sizeof e->text)
        return;
    memmove(e->text + e->cursor + 1, e->text + e->cursor, e->len - e->cursor + 1);
    e->text[e->cursor++] = ch;
    e->len++;
}

/* The start of the word before the cursor (spaces and '/' end words). */
static size_t word_start(const line_edit *e)
{
    size_t i = e->cursor;
    while (i > 0 && (e->text[i - 1] == ' ' || e->text[i - 1] == '/'))
        i--;
    while (i > 0 && e->text[i - 1] != ' ' && e->text[i - 1] != '/')
        i--;
    return i;
}

static int is_delete_key(int key)
{
    return key == BACKSPACE || key == DEL || key == LINE_KEY_DELETE || key == CTRL_U ||
           key == CTRL_K || key == CTRL_W;
}

/* Keys that delete: with a selection, each deletes it all. */
static void delete_key(line_edit *e, int key)
{
    if (e->selected) {
        cut(e, 0, e->len);
        e->selected = 0;
        return;
    }
    switch (key) {
    case BACKSPACE:
    case DEL:
        if (e->cursor > 0)
            cut(e, e->cursor - 1, e->cursor);
        break;
    case LINE_KEY_DELETE:
        if (e->cursor < e->len)
            cut(e, e->cursor, e->cursor + 1);
        break;
    case CTRL_U: cut(e, 0, e->cursor); break;
    case CTRL_K: cut(e, e->cursor, e->len); break;
    default: cut(e, word_start(e), e->cursor); break; /* CTRL_W */
    }
}

/* Keys that move the cursor: they keep the text and end the selection. */
static int move_key(line_edit *e, int key)
{
    switch (key) {
    case LINE_KEY_LEFT:
        if (e->cursor > 0)
            e->cursor--;
        break;
    case LINE_KEY_RIGHT:
        if (e->cursor < e->len)
            e->cursor++;
        break;
    case LINE_KEY_HOME:
    case CTRL_A: e->cursor = 0; break;
    case LINE_KEY_END:
    case CTRL_E: e->cursor = e->len; break;
    default: return 0;
    }
    e->selected = 0;
    return 1;
}

int line_edit_key(line_edit *e, int key)
{
    if (key >= 32 && key < 127) {
        if (e->selected)
            cut(e, 0, e->len);
        e->selected = 0;
        insert(e, (char)key);
        return 1;
    }
    if (is_delete_key(key)) {
        delete_key(e, key);
        return 1;
    }
    return move_key(e, key);
}
