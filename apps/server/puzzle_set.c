/* puzzle_set.c: the puzzle set, read and checked once, and the answers
 * checked against it (puzzle_set.h). */
#include "puzzle_set.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carcassonne.h"

struct puzzle_set {
    json_t *root;
    int n;
    puzzle *puzzles;
};

static int id_ok(const char *id)
{
    size_t n = strlen(id);
    if (n == 0 || n >= STORED_PUZZLE_ID_BYTES)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((id[i] >= 'a' && id[i] <= 'z') || (id[i] >= '0' && id[i] <= '9') || id[i] == '-'))
            return 0;
    return 1;
}

/* The position of `p`: its record read, its tile drawn. NULL with the
 * reason in `err`. */
static carc_game *position(const char *record, const char *tile, char *err, size_t errcap)
{
    carc_record_error rerr;
    carc_game *g = carc_record_read(record, strlen(record), 1, &rerr);
    if (!g) {
        snprintf(err, errcap, "its record, line %d: %s", rerr.line, rerr.message);
        return NULL;
    }
    int kind = carc_tile_parse(tile);
    if (carc_game_over(g) || kind < 0 || carc_game_rules(g).hand > 0 ||
        (carc_game_drawn_tile(g) != kind && carc_game_choose_tile(g, kind) != CARC_OK)) {
        snprintf(err, errcap, "tile %s cannot be drawn in its position", tile);
        carc_game_free(g);
        return NULL;
    }
    return g;
}

/* The puzzle object `o` into `p`, checked: 0, or -1 with `err`. */
static int read_puzzle(json_t *o, puzzle *p, char *err, size_t errcap)
{
    const char *id = json_string_value(json_object_get(o, "id"));
    p->record = json_string_value(json_object_get(o, "record"));
    p->tile = json_string_value(json_object_get(o, "tile"));
    p->best = json_string_value(json_object_get(o, "best"));
    json_t *rating = json_object_get(o, "rating");
    if (!id || !id_ok(id) || !p->record || !p->tile || !p->best || !json_is_number(rating) ||
        !json_is_string(json_object_get(o, "goal_text")) ||
        !json_is_string(json_object_get(o, "why"))) {
        snprintf(err, errcap,
                 "a puzzle needs an id of [a-z0-9-], a record, a tile, a best move, "
                 "a goal_text, a why and a rating");
        return -1;
    }
    p->id = id;
    p->rating = json_number_value(rating);
    p->json = o;
    char why[160];
    if (puzzle_check(p, p->best, NULL, why, sizeof why) != 1) {
        snprintf(err, errcap, "puzzle %s: %s", id, why);
        return -1;
    }
    return 0;
}

puzzle_set *puzzle_set_load(const char *path, char *err, size_t errcap)
{
    json_error_t jerr;
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        snprintf(err, errcap, "%s: line %d: %s", path, jerr.line, jerr.text);
        return NULL;
    }
    json_t *list = json_object_get(root, "puzzles");
    size_t n = json_array_size(list);
    puzzle_set *set = calloc(1, sizeof *set);
    if (!json_is_array(list) || n == 0 || n > PUZZLE_SET_MAX || !set ||
        !(set->puzzles = calloc(n, sizeof *set->puzzles))) {
        snprintf(err, errcap, "%s: no \"puzzles\" array of 1 to %d puzzles", path, PUZZLE_SET_MAX);
        free(set);
        json_decref(root);
        return NULL;
    }
    set->root = root;
    for (size_t i = 0; i < n; i++) {
        char why[256] = "";
        if (read_puzzle(json_array_get(list, i), &set->puzzles[i], why, sizeof why) != 0 ||
            puzzle_set_find(set, set->puzzles[i].id) >= 0) {
            snprintf(err, errcap, "%s: puzzle %zu: %s", path, i + 1,
                     why[0] ? why : "its id is another puzzle's");
            puzzle_set_free(set);
            return NULL;
        }
        set->n++;
    }
    return set;
}

void puzzle_set_free(puzzle_set *set)
{
    if (!set)
        return;
    json_decref(set->root);
    free(set->puzzles);
    free(set);
}

int puzzle_set_count(const puzzle_set *set)
{
    return set ? set->n : 0;
}

const puzzle *puzzle_set_at(const puzzle_set *set, int index)
{
    return set && index >= 0 && index < set->n ? &set->puzzles[index] : NULL;
}

int puzzle_set_find(const puzzle_set *set, const char *id)
{
    for (int i = 0; set && i < set->n; i++)
        if (strcmp(set->puzzles[i].id, id) == 0)
            return i;
    return -1;
}

int puzzle_set_daily(const puzzle_set *set, int64_t now_ms)
{
    if (!set || set->n == 0)
        return -1;
    int64_t day = now_ms / (24LL * 3600 * 1000);
    /* A step prime to most set sizes, so that days do not walk the set in
     * its order (which follows the records). */
    return (int)(((uint64_t)day * 7919u) % (uint64_t)set->n);
}

int puzzle_set_nearest(const puzzle_set *set, double target, const double *ratings,
                       const unsigned char *skip)
{
    int best = -1;
    double best_gap = 0;
    for (int i = 0; set && i < set->n; i++) {
        double gap = fabs(ratings[i] - target);
        if ((!skip || !skip[i]) && (best < 0 || gap < best_gap)) {
            best = i;
            best_gap = gap;
        }
    }
    return best;
}

int puzzle_check(const puzzle *p, const char *move, char *canonical, char *err, size_t errcap)
{
    carc_game *g = position(p->record, p->tile, err, errcap);
    if (!g)
        return -1;
    carc_move m, best;
    int result = -1;
    char why[160];
    if (carc_move_parse_message(g, move, &m, why, sizeof why) != CARC_OK) {
        snprintf(err, errcap, "'%.40s' is not a legal move here: %s", move, why);
    } else if (carc_move_parse(g, p->best, &best) != CARC_OK) {
        snprintf(err, errcap, "its best move '%s' is not legal: %s", p->best, carc_game_error(g));
    } else {
        m = carc_move_canonical(g, m);
        result = carc_move_equal(m, carc_move_canonical(g, best));
        if (canonical)
            carc_move_write(g, m, canonical, 32);
    }
    carc_game_free(g);
    return result;
}

json_t *puzzle_question_json(const puzzle *p)
{
    json_t *o = json_object();
    static const char *const keys[] = {"id",   "record", "moves_played", "player",
                                       "tile", "goal",   "goal_text",    "legal_moves"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        json_t *v = json_object_get(p->json, keys[i]);
        if (v)
            json_object_set(o, keys[i], v);
    }
    return o;
}

json_t *puzzle_answer_json(const puzzle *p)
{
    json_t *o = json_object();
    static const char *const keys[] = {"best", "points", "why", "win", "margin", "runners_up"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        json_t *v = json_object_get(p->json, keys[i]);
        if (v)
            json_object_set(o, keys[i], v);
    }
    return o;
}
