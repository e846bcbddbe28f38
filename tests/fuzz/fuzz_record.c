/* fuzz_record.c: libFuzzer harness for the record reader. Every input is
 * read; a record that parses is written back, read again and written once
 * more, and the games and texts must agree: a round-trip oracle that
 * aborts on any difference. The queries a front end makes on the parsed
 * game run too, so that a strange but valid record cannot crash them. */
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    carc_record_error err;
    carc_game *g = carc_record_read((const char *)data, size, 1, &err);
    if (!g) {
        check_error(&err);
        return 0;
    }
    query(g);
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
