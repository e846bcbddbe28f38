/* fuzz_record.c: libFuzzer harness for the record reader. Every input is
 * read; a record that parses is written back, read again and written once
 * more, and the games and texts must agree: a round-trip oracle that
 * aborts on any difference. The queries a front end makes on the parsed
 * game run too, so that a strange but valid record cannot crash them. The
 * header reader, the move-by-move replay, the legal moves, the public view
 * and the digest must agree with the reader. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carcassonne.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_record: %s\n", what);
        abort();
    }
}

static void check_error(const carc_record_error *err)
{
    check(err->line >= 1, "an error without a line number");
    check(memchr(err->message, '\0', sizeof err->message) != NULL, "an unterminated message");
    check(err->message[0] != '\0', "an empty error message");
}

/* The parts of a game its record fixes (the pile after the last move
 * depends on the reader's seed). */
static void check_same_game(const carc_game *a, const carc_game *b)
{
    check(carc_game_players(a) == carc_game_players(b), "players differ");
    check(carc_game_rules(a).flags == carc_game_rules(b).flags, "rules differ");
    check(carc_game_rules(a).expansions == carc_game_rules(b).expansions, "expansions differ");
    check(carc_game_tile_total(a) == carc_game_tile_total(b), "tile totals differ");
    check(carc_game_river_phase(a) == carc_game_river_phase(b), "river phases differ");
    check(carc_game_over(a) == carc_game_over(b), "game over differs");
    check(carc_game_ended_early(a) == carc_game_ended_early(b), "end differs");
    check(carc_game_current_player(a) == carc_game_current_player(b), "turn differs");
    check(carc_game_move_count(a) == carc_game_move_count(b), "move count differs");
    for (int i = 0; i < carc_game_move_count(a); i++) {
        carc_move ma, mb;
        int ka, kb;
        check(carc_game_move_at(a, i, &ma, &ka) == CARC_OK, "move_at failed");
        check(carc_game_move_at(b, i, &mb, &kb) == CARC_OK, "move_at failed");
        check(ka == kb && ma.type == mb.type, "a move differs");
        check(carc_game_move_player(a, i) == carc_game_move_player(b, i), "a mover differs");
        if (ma.type == CARC_MOVE_PLACE)
            check(ma.place.x == mb.place.x && ma.place.y == mb.place.y &&
                      ma.place.rot == mb.place.rot && ma.segment == mb.segment,
                  "a placement differs");
    }
    for (int p = 0; p < carc_game_players(a); p++) {
        check(carc_game_score(a, p) == carc_game_score(b, p), "scores differ");
        check(carc_game_supply(a, p) == carc_game_supply(b, p), "supplies differ");
        for (int k = 0; k < 4; k++)
            check(carc_game_score_of(a, p, (carc_kind)k) == carc_game_score_of(b, p, (carc_kind)k),
                  "score breakdowns differ");
    }
    check(carc_game_tile_count(a) == carc_game_tile_count(b), "tile counts differ");
    for (int t = 0; t < carc_game_tile_count(a); t++) {
        carc_tile_on_board ta, tb;
        check(carc_game_tile_info(a, t, &ta) == CARC_OK, "tile_info failed");
        check(carc_game_tile_info(b, t, &tb) == CARC_OK, "tile_info failed");
        check(memcmp(&ta, &tb, sizeof ta) == 0, "boards differ");
    }
}

/* What a front end asks of a position. */
static void query(const carc_game *g)
{
    for (int p = 0; p < carc_game_players(g); p++) {
        int sum = 0;
        for (int k = 0; k < 4; k++)
            sum += carc_game_score_of(g, p, (carc_kind)k);
        check(sum == carc_game_score(g, p), "a score is not its breakdown");
        int supply = carc_game_supply(g, p);
        check(supply >= 0 && supply <= CARC_FOLLOWERS, "a supply out of range");
    }
    for (int t = 0; t < carc_game_tile_count(g); t++) {
        carc_tile_on_board info;
        check(carc_game_tile_info(g, t, &info) == CARC_OK, "tile_info failed");
        check(carc_game_tile_at(g, info.x, info.y) == t, "tile_at disagrees");
        const carc_tile_def *def = carc_tile(info.kind);
        check(def != NULL, "a tile of no kind");
        for (int s = 0; s < def->nsegments; s++) {
            int f = carc_game_feature(g, t, s);
            carc_feature fi;
            check(f >= 0 && carc_game_feature_info(g, f, &fi) == CARC_OK, "feature_info failed");
            check(fi.kind == def->segments[s].kind, "a feature of another kind");
            check(carc_game_feature_has(g, f, t, s), "feature_has disagrees");
        }
    }
    carc_placement places[CARC_MAX_PLACEMENTS];
    int n = carc_legal_placements(g, places, CARC_MAX_PLACEMENTS);
    check(n >= 0 && n <= CARC_MAX_PLACEMENTS, "placement count");
    if (n > 0) {
        carc_spot spots[CARC_MAX_SPOTS];
        check(carc_placement_legal(g, places[n - 1]), "a listed placement is illegal");
        int ns = carc_legal_spots(g, places[n - 1], spots, CARC_MAX_SPOTS);
        check(ns >= 0 && ns <= CARC_MAX_SPOTS, "spot count");
    }
}

/* The header reader fails exactly where the reader fails in the headers;
 * on a good record it finds the players line first, views inside the
 * text, and the headers it finds written back read back the same. */
static void check_headers(const char *text, size_t size, const carc_game *g,
                          const carc_record_error *read_err)
{
    enum { MAX_HEADERS = 64 };
    carc_header h[MAX_HEADERS];
    carc_record_error err;
    int n = carc_record_headers(text, size, h, MAX_HEADERS, &err);
    if (n < 0) {
        check_error(&err);
        check(g == NULL, "the headers fail but the record reads");
        check(err.line == read_err->line && strcmp(err.message, read_err->message) == 0,
              "the header reader and the reader disagree on the error");
        return;
    }
    if (!g)
        return; /* the error is in the moves */
    check(n >= 1 && h[0].key_len == 7 && memcmp(h[0].key, "players", 7) == 0,
          "the first header is not players");
    static char built[CARC_RECORD_MAX_LINE * 4];
    char key[CARC_RECORD_MAX_LINE + 1], value[CARC_RECORD_MAX_LINE + 1];
    built[0] = '\0';
    int kept = 0;
    for (int i = 0; i < n && i < MAX_HEADERS; i++) {
        check(h[i].key >= text && h[i].value + h[i].value_len <= text + size, "a view outside");
        check(h[i].key_len <= CARC_RECORD_MAX_LINE && h[i].value_len <= CARC_RECORD_MAX_LINE,
              "a header longer than a line");
        snprintf(key, sizeof key, "%.*s", (int)h[i].key_len, h[i].key);
        snprintf(value, sizeof value, "%.*s", (int)h[i].value_len, h[i].value);
        if (carc_header_check(key, value, NULL, 0) == CARC_OK &&
            carc_header_append(built, sizeof built, key, value) == CARC_OK)
            kept++;
    }
    size_t len = carc_record_write(g, built, NULL, 0);
    char *out = malloc(len + 1);
    check(out != NULL, "out of memory");
    carc_record_write(g, built, out, len + 1);
    int again = carc_record_headers(out, len, h, MAX_HEADERS, &err);
    /* players, rules (when any: flags, hand=N or table=WxH), expansions
     * (when any), then the kept ones */
    carc_rules rules = carc_game_rules(g);
    int has_rules = carc_rules_format(rules, NULL, 0, " ") > 0;
    check(again == 1 + has_rules + (rules.expansions != 0) + kept, "written headers read back");
    free(out);
}

typedef struct replay_count {
    int steps, ends;
} replay_count;

static int count_step(void *ctx, const carc_replay_step *step)
{
    replay_count *c = ctx;
    check(step->index == carc_game_move_count(step->game) - !step->end, "a step's index");
    check(step->nevents >= 0 && step->nevents <= CARC_MAX_EVENTS, "a step's events");
    c->steps++;
    c->ends += step->end;
    return 0;
}

/* The replay reaches the reader's game, one step per move (and `end`). */
static void check_replay(const char *text, size_t size, const carc_game *g)
{
    replay_count c = {0, 0};
    carc_game *h = carc_record_replay(text, size, 1, count_step, &c, NULL);
    check(h != NULL, "the replay fails where the reader did not");
    check(c.steps == carc_game_move_count(g) + c.ends, "a step per move");
    check(c.ends == (carc_game_ended_early(g) ? 1 : 0), "the end step");
    check_same_game(g, h);
    check(carc_game_digest(g) == carc_game_digest(h), "replayed digests differ");
    carc_game_free(h);
}

/* The legal moves are legal, and a public view has the game's digest. */
static void check_moves_and_view(const carc_game *g)
{
    static carc_move moves[CARC_MAX_MOVES];
    int n = carc_legal_moves(g, moves, CARC_MAX_MOVES);
    check(n >= 0 && n <= CARC_MAX_MOVES, "a move count out of range");
    check((n == 0) == (carc_game_over(g) != 0), "no move but the game goes on");
    carc_game *copy = carc_game_clone(g);
    check(copy != NULL, "out of memory");
    for (int i = 0; i < n; i += n / 3 + 1) {
        carc_game_copy(copy, g);
        check(carc_move_equal(carc_move_canonical(g, moves[i]), moves[i]), "a move not canonical");
        check(carc_game_play(copy, moves[i], NULL, 0, NULL) == CARC_OK, "a listed move is illegal");
    }
    carc_game_public_view(copy, g, 7);
    check(carc_game_digest(copy) == carc_game_digest(g), "a view's digest differs");
    carc_game_free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    carc_record_error err;
    carc_game *g = carc_record_read((const char *)data, size, 1, &err);
    check_headers((const char *)data, size, g, &err);
    if (!g) {
        check_error(&err);
        return 0;
    }
    query(g);
    check_replay((const char *)data, size, g);
    check_moves_and_view(g);
    size_t len = carc_record_write(g, NULL, NULL, 0);
    char *text = malloc(len + 1), *again = malloc(len + 1);
    check(text && again, "out of memory");
    check(carc_record_write(g, NULL, text, len + 1) == len, "write lengths differ");
    check(strlen(text) == len, "the written record has a NUL inside");
    carc_game *h = carc_record_read(text, len, 2, &err);
    if (!h) {
        fprintf(stderr, "line %d: %s\n%s", err.line, err.message, text);
        check(0, "the written record does not read back");
    }
    check_same_game(g, h);
    check(carc_record_write(h, NULL, again, len + 1) == len, "rewritten length differs");
    check(memcmp(text, again, len + 1) == 0, "rewritten record differs");
    carc_game_free(h);
    free(again);
    free(text);
    carc_game_free(g);
    return 0;
}
