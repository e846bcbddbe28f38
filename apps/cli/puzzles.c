/* puzzles.c: `carcassonne puzzles`: positions of real games where the
 * engine finds one move clearly best, checked by a longer search, written
 * as a puzzle set (JSON) that the server serves (docs/puzzles.md). */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carcassonne_ai.h"
#include "args.h"
#include "cli.h"
#include "move_list.h"

static const char puzzles_usage[] =
    "usage: carcassonne puzzles --from RECORD... --out FILE [--ms N] [--max K]\n"
    "                           [--per-game P] [--seed S]\n"
    "       carcassonne puzzles --regoal SET --out FILE\n"
    "\n"
    "Reviews every move of the game records RECORD... and keeps as puzzles\n"
    "the positions where one move is clearly best: ahead of every other move\n"
    "by at least %.0f points of chance to win and %.1f points of expected\n"
    "margin, first in a review of N ms, then again in a check %d times as long\n"
    "(docs/puzzles.md). Records with a hand of tiles are left out (their\n"
    "hands are hidden).\n"
    "\n"
    "  --from RECORD... the records to read (every argument up to the next\n"
    "                   option)\n"
    "  -- RECORD...     more records: every argument after '--', even one that\n"
    "                   begins with '-'\n"
    "  --out FILE       the puzzle set to write ('-' for standard output)\n"
    "  --ms N           the review's search time a position (default 50)\n"
    "  --max K          stop after K puzzles (default 60)\n"
    "  --per-game P     at most P puzzles from one record (default 3)\n"
    "  --seed S         seeds the searches (default 1)\n"
    "  --regoal SET     instead: the puzzle set SET with each puzzle's goal,\n"
    "                   goal_text, why and points derived again from its\n"
    "                   position and best move (nothing is searched)\n"
    "\n"
    "Exit status: 0 written, 1 an invalid record or nothing written, 2 bad\n"
    "arguments or an unreadable RECORD or SET.\n";

/* "Clearly best" (docs/puzzles.md): the best move's lead over the
 * runner-up in both the review and the longer check. */
#define WIN_GAP 0.03
#define MARGIN_GAP 2.5
enum {
    CHECK_FACTOR = 8, /* the check searches this many times as long */
    MIN_MOVES = 4,    /* distinct legal moves a puzzle offers at least */
    RUNNERS_UP = 4,   /* runner-up moves a puzzle lists */
    LATE_TILES = 15,  /* "the move that wins the game": at most so many tiles left */
    MAX_FROM = 4096,
    SET_MAX_BYTES = 64 << 20, /* the largest puzzle set --regoal reads */
};

typedef struct options {
    const char *from[MAX_FROM];
    int nfrom;
    const char *out;
    const char *regoal; /* a set whose goals are derived again */
    long ms, max, per_game;
    uint64_t seed;
} options;

/* What the search of one position found. */
typedef struct ranking {
    carc_move_eval *evals;
    int n;
} ranking;

/* The making of a set: the players, the puzzles so far. */
typedef struct maker {
    const options *o;
    carc_player *review, *check, *greedy;
    json_t *puzzles;
    char source[96];   /* the record's name in ids: "base-155k-0003" */
    carc_game *before; /* the position before the next move */
    int kept;          /* puzzles of this record */
    long examined;     /* positions reviewed */
} maker;

static json_t *rounded(double v, double scale)
{
    return json_real(isfinite(v) ? round(v * scale) / scale : 0.0);
}

/* Whether the best of `r` leads every other move clearly. */
static int clearly_best(const ranking *r)
{
    if (r->n < MIN_MOVES)
        return 0;
    for (int i = 1; i < r->n; i++)
        if (r->evals[0].win - r->evals[i].win < WIN_GAP ||
            r->evals[0].margin - r->evals[i].margin < MARGIN_GAP)
            return 0;
    return 1;
}

static int rank(carc_player *p, const carc_game *g, ranking *r)
{
    r->evals = move_list_rank(p, g, &r->n, NULL);
    return r->evals ? 0 : -1;
}

/* --- What the best move does ---------------------------------------------------------- */

/* The goal and the reason of a puzzle, from what the best move scores and
 * changes: its points now, its figure's feature, the chances. */
typedef struct goal {
    const char *kind; /* "win-game", "win-city", "win-road", "cloister", "farm", "claim-city",
                         "claim-road", "grow-city", "grow-road", "grow-farm", "grow-cloister",
                         "best" */
    char text[96];    /* what the solver is asked to find */
    char why[320];    /* why the best move is best, said after the attempt */
    int points;       /* what the best move scores for its player now */
} goal;

static const char *kind_word(int kind)
{
    static const char *const words[] = {"road", "city", "farm", "cloister", "river"};
    return kind >= 0 && kind <= CARC_RIVER ? words[kind] : "feature";
}

/* The points the move scored for `mover`, and the kind of the biggest
 * feature it completed for them (-1: none). */
static int scored_for(const carc_event *ev, int nev, int mover, int *biggest)
{
    int points = 0, best = 0;
    *biggest = -1;
    for (int i = 0; i < nev; i++)
        if (ev[i].winners & (1u << mover)) {
            points += ev[i].points;
            if (ev[i].complete && ev[i].points > best) {
                best = ev[i].points;
                *biggest = ev[i].kind;
            }
        }
    return points;
}

/* The kind of the feature the move's figure stands on, and whether another
 * player has followers there after the move (-1: no figure). */
static int figure_feature(const carc_game *after, int mover, int *shared)
{
    int last = carc_game_tile_count(after) - 1;
    carc_tile_on_board t;
    *shared = 0;
    if (last < 0 || carc_game_tile_info(after, last, &t) != CARC_OK ||
        t.follower_segment == CARC_NO_SPOT)
        return -1;
    int f = carc_game_feature(after, last, t.follower_segment);
    carc_feature info;
    if (f < 0 || carc_game_feature_info(after, f, &info) != CARC_OK)
        return carc_tile(t.kind)->segments[t.follower_segment].kind;
    for (int p = 0; p < carc_game_players(after); p++)
        if (p != mover && info.followers[p])
            *shared = 1;
    return info.kind;
}

/* Adds feature `f` of `after` as grown when `mover` leads it (alone or
 * tied) and it is open, keeping the one worth most at the end. */
static void consider_grown(const carc_game *after, int f, int mover, int *kind, int *worth)
{
    carc_feature info;
    if (f < 0 || carc_game_feature_info(after, f, &info) != CARC_OK || info.complete ||
        !(info.owners & (1u << mover)) || info.kind == CARC_RIVER)
        return;
    if (*kind < 0 || info.value_at_end > *worth) {
        *kind = info.kind;
        *worth = info.value_at_end;
    }
}

/* The open feature the move's tile added to that `mover` leads and that
 * is worth most at the end (a cloister counts when the tile is one of its
 * eight neighbours): its kind, or -1; its worth in `*worth`. */
static int grown_feature(const carc_game *after, int mover, int *worth)
{
    int last = carc_game_tile_count(after) - 1, kind = -1;
    carc_tile_on_board t;
    *worth = 0;
    if (last < 0 || carc_game_tile_info(after, last, &t) != CARC_OK)
        return -1;
    for (int s = 0; s < carc_tile(t.kind)->nsegments; s++)
        consider_grown(after, carc_game_feature(after, last, s), mover, &kind, worth);
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int at = dx || dy ? carc_game_tile_at(after, t.x + dx, t.y + dy) : -1;
            carc_tile_on_board n;
            if (at < 0 || carc_game_tile_info(after, at, &n) != CARC_OK)
                continue;
            const carc_tile_def *def = carc_tile(n.kind);
            for (int s = 0; s < def->nsegments; s++)
                if (def->segments[s].kind == CARC_CLOISTER)
                    consider_grown(after, carc_game_feature(after, at, s), mover, &kind, worth);
        }
    return kind;
}

static void goal_of(const carc_game *pos, const ranking *r, goal *out)
{
    carc_game *after = carc_game_clone(pos);
    carc_event ev[64];
    int nev = 0, mover = carc_game_current_player(pos), completed = -1, shared = 0, figure = -1;
    int grown = -1, worth = 0;
    const carc_move_eval *best = &r->evals[0], *next = &r->evals[1];
    memset(out, 0, sizeof *out);
    if (after && carc_game_play(after, best->move, ev, 64, &nev) == CARC_OK) {
        out->points = scored_for(ev, nev, mover, &completed);
        figure = carc_game_over(after) ? -1 : figure_feature(after, mover, &shared);
        grown = carc_game_over(after) ? -1 : grown_feature(after, mover, &worth);
    }
    carc_game_free(after);
    int tiles = carc_game_tiles_left(pos, NULL);
    char says[96] = "";
    if (best->win > 0.5 && next->win < 0.5 && tiles <= LATE_TILES) {
        out->kind = "win-game";
        snprintf(out->text, sizeof out->text, "Find the move that wins the game");
        snprintf(says, sizeof says, "it turns the game your way");
    } else if (completed == CARC_CITY || completed == CARC_ROAD) {
        out->kind = completed == CARC_CITY ? "win-city" : "win-road";
        snprintf(out->text, sizeof out->text, "Win the %s", kind_word(completed));
        snprintf(says, sizeof says, "it completes a %s for you", kind_word(completed));
    } else if (completed == CARC_CLOISTER) {
        out->kind = "cloister";
        snprintf(out->text, sizeof out->text, "Complete the cloister");
        snprintf(says, sizeof says, "it completes a cloister for you");
    } else if (figure == CARC_FIELD) {
        out->kind = "farm";
        snprintf(out->text, sizeof out->text, "Find the best farm");
        snprintf(says, sizeof says, "its farmer %s a farm worth the most at the end",
                 shared ? "shares" : "takes");
    } else if (figure == CARC_CITY || figure == CARC_ROAD) {
        out->kind = figure == CARC_CITY ? "claim-city" : "claim-road";
        snprintf(out->text, sizeof out->text, "%s the %s", shared ? "Take a share of" : "Claim",
                 kind_word(figure));
        snprintf(says, sizeof says, "its follower %s the %s", shared ? "joins" : "claims",
                 kind_word(figure));
    } else if (grown >= 0) {
        static const char *const kinds[] = {"grow-road", "grow-city", "grow-farm", "grow-cloister"};
        static const char *const texts[] = {"Extend your road", "Grow your city", "Grow your farm",
                                            "Build around your cloister"};
        out->kind = kinds[grown <= CARC_CLOISTER ? grown : 0];
        snprintf(out->text, sizeof out->text, "%s", texts[grown <= CARC_CLOISTER ? grown : 0]);
        snprintf(says, sizeof says, "it adds to your %s (%d point%s if the game ended now)",
                 kind_word(grown), worth, worth == 1 ? "" : "s");
    } else {
        out->kind = "best";
        snprintf(out->text, sizeof out->text, "Find the best place for the tile");
        snprintf(says, sizeof says, "it leaves the board best for you");
    }
    snprintf(out->why, sizeof out->why,
             "%s: %d point%s now; chance to win %.0f%% (the next best move %.0f%%), expected "
             "margin %+.1f (the next best %+.1f)",
             says, out->points, out->points == 1 ? "" : "s", 100.0 * best->win, 100.0 * next->win,
             best->margin, next->margin);
}

/* --- One puzzle --------------------------------------------------------------------------- */

/* A puzzle's starting rating: harder when greedy (the one-move lookahead)
 * misses the best move, and when there are more moves to choose from. */
static int start_rating(const carc_game *pos, carc_player *greedy, carc_move best, int moves)
{
    carc_move pick;
    int missed = carc_player_choose(greedy, pos, &pick, NULL) != CARC_OK ||
                 !carc_move_equal(carc_move_canonical(pos, pick), best);
    int many = moves < 100 ? moves : 100;
    return 1200 + (missed ? 400 : 0) + 4 * many;
}

static json_t *move_json(const carc_game *pos, const carc_move_eval *e)
{
    char text[32];
    carc_move_write(pos, e->move, text, sizeof text);
    return json_pack("{s:s, s:o, s:o}", "move", text, "win", rounded(e->win, 1000.0), "margin",
                     rounded(e->margin, 100.0));
}

static json_t *puzzle_json(maker *m, const carc_game *pos, int index, const ranking *r)
{
    char id[sizeof m->source + 16], text[32], *record = malloc(CARC_RECORD_MAX_BYTES);
    if (!record)
        return NULL;
    carc_record_write(pos, NULL, record, CARC_RECORD_MAX_BYTES);
    snprintf(id, sizeof id, "%s-%d", m->source, index + 1);
    goal g;
    goal_of(pos, r, &g);
    carc_move_write(pos, r->evals[0].move, text, sizeof text);
    json_t *runners = json_array();
    for (int i = 1; i < r->n && i <= RUNNERS_UP; i++)
        json_array_append_new(runners, move_json(pos, &r->evals[i]));
    int mover = carc_game_current_player(pos);
    json_t *p = json_pack(
        "{s:s, s:s, s:i, s:i, s:s, s:s, s:s, s:s, s:s, s:i, s:o, s:o, s:o, s:i, s:i}", "id", id,
        "record", record, "moves_played", carc_game_move_count(pos), "player", mover + 1, "tile",
        carc_tile_id(carc_game_drawn_tile(pos)), "goal", g.kind, "goal_text", g.text, "best", text,
        "why", g.why, "points", g.points, "win", rounded(r->evals[0].win, 1000.0), "margin",
        rounded(r->evals[0].margin, 100.0), "runners_up", runners, "legal_moves", r->n, "rating",
        start_rating(pos, m->greedy, r->evals[0].move, r->n));
    free(record);
    return p;
}

/* Reviews the position `pos` (its tile drawn) and adds it when it is a
 * puzzle: 1 kept, 0 not, -1 out of memory. */
static int try_position(maker *m, const carc_game *pos, int index)
{
    ranking quick = {0}, longer = {0};
    m->examined++;
    if (rank(m->review, pos, &quick) != 0)
        return -1;
    int kept = 0;
    if (clearly_best(&quick)) {
        if (rank(m->check, pos, &longer) != 0) {
            free(quick.evals);
            return -1;
        }
        if (clearly_best(&longer) && carc_move_equal(longer.evals[0].move, quick.evals[0].move)) {
            json_t *p = puzzle_json(m, pos, index, &longer);
            kept = p ? 1 : -1;
            json_array_append_new(m->puzzles, p);
        }
    }
    free(quick.evals);
    free(longer.evals);
    return kept;
}

/* carc_replay_fn: each move's position, with the tile the record drew. */
static int puzzle_step(void *ctx, const carc_replay_step *step)
{
    maker *m = ctx;
    if (step->end)
        return 0;
    if ((long)json_array_size(m->puzzles) >= m->o->max || m->kept >= m->o->per_game)
        return 1;
    int kept = 0;
    if (carc_game_drawn_tile(m->before) == step->tile_kind ||
        carc_game_choose_tile(m->before, step->tile_kind) == CARC_OK)
        kept = try_position(m, m->before, step->index);
    if (kept < 0)
        return 1;
    m->kept += kept;
    carc_game_copy(m->before, step->game);
    return 0;
}

/* The name a record's puzzles take in their ids: its folder and its file
 * without ".rec" nor "game-", in [a-z0-9-]. */
static void source_name(const char *path, char *out, size_t cap)
{
    const char *file = strrchr(path, '/'), *dir = path;
    file = file ? file + 1 : path;
    size_t dir_len = file > path ? (size_t)(file - path - 1) : 0;
    for (size_t i = 0; i < dir_len; i++)
        if (path[i] == '/')
            dir = path + i + 1;
    if (strncmp(file, "game-", 5) == 0)
        file += 5;
    char raw[160];
    size_t dlen = dir_len ? (size_t)(path + dir_len - dir) : 0;
    snprintf(raw, sizeof raw, "%.*s%s%s", (int)dlen, dir, dlen ? "-" : "", file);
    char *dot = strstr(raw, ".rec");
    if (dot)
        *dot = '\0';
    size_t w = 0;
    for (size_t i = 0; raw[i] && w + 1 < cap; i++) {
        char c = raw[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        else if (!ok)
            c = '-';
        out[w++] = c;
    }
    out[w] = '\0';
}

/* One record: 0, or EXIT_INVALID / EXIT_USAGE. */
static int from_record(maker *m, const char *path)
{
    size_t len = 0;
    char *text = cli_read_file(path, CARC_RECORD_MAX_BYTES, &len);
    if (!text) {
        fprintf(stderr, "carcassonne puzzles: cannot read %s: %s\n", path, strerror(errno));
        return EXIT_USAGE;
    }
    carc_record_error err;
    carc_game *g = carc_record_read(text, len, m->o->seed, &err);
    int status = 0;
    if (!g) {
        fprintf(stderr, "carcassonne puzzles: %s: line %d: %s\n", path, err.line, err.message);
        status = EXIT_INVALID;
    } else if (carc_game_rules(g).hand == 0) {
        source_name(path, m->source, sizeof m->source);
        carc_rules rules = carc_game_rules(g);
        m->kept = 0;
        m->before = carc_game_new(carc_game_players(g), &rules, m->o->seed);
        carc_game *end =
            m->before ? carc_record_replay(text, len, m->o->seed, puzzle_step, m, NULL) : NULL;
        carc_game_free(end);
        carc_game_free(m->before);
        m->before = NULL;
    }
    carc_game_free(g);
    free(text);
    return status;
}

/* --- Arguments and the set ---------------------------------------------------------------- */

static int parse_number(const char *a, const char *v, long lo, long hi, long *out)
{
    uint64_t n = 0;
    if (cli_parse_u64(v, &n) < 0 || n < (uint64_t)lo || n > (uint64_t)hi)
        return cli_usage_error("puzzles", "%s takes %ld to %ld, not '%s'", a, lo, hi, v);
    *out = (long)n;
    return 0;
}

static int parse_args(options *o, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) { /* the rest are RECORDs, '-' or not */
            if (argc - i - 1 > MAX_FROM - o->nfrom)
                return cli_usage_error("puzzles", "--from takes at most %d RECORDs", MAX_FROM);
            while (i + 1 < argc)
                o->from[o->nfrom++] = argv[++i];
            break;
        }
        if (strcmp(a, "--from") == 0) {
            while (i + 1 < argc && argv[i + 1][0] != '-' && o->nfrom < MAX_FROM)
                o->from[o->nfrom++] = argv[++i];
            if (i + 1 < argc && argv[i + 1][0] != '-')
                return cli_usage_error("puzzles", "--from takes at most %d RECORDs", MAX_FROM);
            continue;
        }
        int valued = strcmp(a, "--out") == 0 || strcmp(a, "--ms") == 0 || strcmp(a, "--max") == 0 ||
                     strcmp(a, "--per-game") == 0 || strcmp(a, "--seed") == 0 ||
                     strcmp(a, "--regoal") == 0;
        if (!valued)
            return cli_usage_error("puzzles", "unknown argument '%s'", a);
        if (i + 1 >= argc)
            return cli_usage_error("puzzles", "%s needs a value", a);
        const char *v = argv[++i];
        int bad = 0;
        if (strcmp(a, "--out") == 0)
            o->out = v;
        else if (strcmp(a, "--regoal") == 0)
            o->regoal = v;
        else if (strcmp(a, "--ms") == 0)
            bad = parse_number(a, v, 1, 600000, &o->ms);
        else if (strcmp(a, "--max") == 0)
            bad = parse_number(a, v, 1, 100000, &o->max);
        else if (strcmp(a, "--per-game") == 0)
            bad = parse_number(a, v, 1, 1000, &o->per_game);
        else if (cli_parse_u64(v, &o->seed) < 0)
            bad = cli_usage_error("puzzles", "--seed takes a number, not '%s'", v);
        if (bad)
            return EXIT_USAGE;
    }
    if (o->regoal && o->nfrom > 0)
        return cli_usage_error("puzzles", "--regoal and --from go apart");
    if (o->nfrom == 0 && !o->regoal)
        return cli_usage_error("puzzles", "--from needs at least one RECORD");
    if (!o->out)
        return cli_usage_error("puzzles", "--out FILE is needed");
    return 0;
}

static carc_player *player(const char *spec, uint64_t seed)
{
    char err[160];
    carc_player *p = carc_player_new(spec, seed, err, sizeof err);
    if (!p)
        fprintf(stderr, "carcassonne puzzles: %s: %s\n", spec, err);
    return p;
}

/* Writes a puzzle set `root` (may be NULL: out of memory) to the file
 * `out` ('-': standard output): EXIT_OK, or EXIT_INVALID said on stderr. */
static int write_json(const json_t *root, const char *out)
{
    size_t flags = JSON_INDENT(1) | JSON_REAL_PRECISION(6);
    int to_stdout = strcmp(out, "-") == 0;
    errno = 0;
    int rc = root ? (to_stdout ? json_dumpf(root, stdout, flags) : json_dump_file(root, out, flags))
                  : -1;
    if (rc == 0 && to_stdout)
        putchar('\n');
    if (rc != 0)
        fprintf(stderr, "carcassonne puzzles: cannot write %s%s%s\n", out, errno ? ": " : "",
                errno ? strerror(errno) : "");
    return rc == 0 ? EXIT_OK : EXIT_INVALID;
}

static int write_set(const maker *m, const options *o)
{
    char review[64], check[64];
    snprintf(review, sizeof review, "mcts:ms=%ld,threads=1", o->ms);
    snprintf(check, sizeof check, "mcts:ms=%ld,threads=1", o->ms * CHECK_FACTOR);
    json_t *root = json_pack("{s:i, s:{s:s, s:s, s:f, s:f, s:i}, s:O}", "version", 1, "criteria",
                             "review", review, "check", check, "win_gap", WIN_GAP, "margin_gap",
                             MARGIN_GAP, "min_moves", MIN_MOVES, "puzzles", m->puzzles);
    int status = write_json(root, o->out ? o->out : "-");
    json_decref(root);
    return status;
}

/* The position of puzzle `p` (its record, its tile drawn), or NULL. */
static carc_game *puzzle_position(const json_t *p)
{
    const char *record = json_string_value(json_object_get(p, "record"));
    int tile = carc_tile_parse(json_string_value(json_object_get(p, "tile")));
    carc_record_error err;
    carc_game *g = record ? carc_record_read(record, strlen(record), 1, &err) : NULL;
    if (g && tile >= 0 && carc_game_drawn_tile(g) != tile &&
        carc_game_choose_tile(g, tile) != CARC_OK) {
        carc_game_free(g);
        return NULL;
    }
    return tile >= 0 ? g : (carc_game_free(g), NULL);
}

/* Derives puzzle `p`'s goal again; 0, or -1 when its position or best
 * move does not read. */
static int regoal_puzzle(json_t *p)
{
    carc_game *pos = puzzle_position(p);
    carc_move_eval evals[2] = {{.win = json_number_value(json_object_get(p, "win")),
                                .margin = json_number_value(json_object_get(p, "margin"))}};
    json_t *next = json_array_get(json_object_get(p, "runners_up"), 0);
    evals[1].win = json_number_value(json_object_get(next, "win"));
    evals[1].margin = json_number_value(json_object_get(next, "margin"));
    const char *best = json_string_value(json_object_get(p, "best"));
    if (!pos || !best || !next || carc_move_parse(pos, best, &evals[0].move) != CARC_OK) {
        carc_game_free(pos);
        return -1;
    }
    ranking r = {evals, 2};
    goal g;
    goal_of(pos, &r, &g);
    carc_game_free(pos);
    json_object_set_new(p, "goal", json_string(g.kind));
    json_object_set_new(p, "goal_text", json_string(g.text));
    json_object_set_new(p, "why", json_string(g.why));
    json_object_set_new(p, "points", json_integer(g.points));
    return 0;
}

/* `--regoal SET --out FILE`. */
static int regoal(const options *o)
{
    json_error_t jerr;
    size_t len = 0;
    char *text = cli_read_file(o->regoal, SET_MAX_BYTES, &len);
    if (!text) {
        fprintf(stderr, "carcassonne puzzles: cannot read %s: %s\n", o->regoal, strerror(errno));
        return EXIT_USAGE;
    }
    json_t *set = len > SET_MAX_BYTES ? NULL : json_loadb(text, len, 0, &jerr);
    if (len > SET_MAX_BYTES)
        snprintf(jerr.text, sizeof jerr.text, "longer than %d bytes", SET_MAX_BYTES);
    free(text);
    json_t *puzzles = json_object_get(set, "puzzles"), *p;
    size_t i;
    if (!json_is_array(puzzles)) {
        fprintf(stderr, "carcassonne puzzles: %s: not a puzzle set (%s)\n", o->regoal,
                set ? "no puzzles" : jerr.text);
        json_decref(set);
        return EXIT_INVALID;
    }
    json_array_foreach(puzzles, i, p)
    {
        if (regoal_puzzle(p) != 0) {
            fprintf(stderr, "carcassonne puzzles: %s: puzzle %zu does not read\n", o->regoal,
                    i + 1);
            json_decref(set);
            return EXIT_INVALID;
        }
    }
    int status = write_json(set, o->out);
    json_decref(set);
    return status;
}

int cmd_puzzles(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf(puzzles_usage, 100.0 * WIN_GAP, MARGIN_GAP, CHECK_FACTOR);
            return EXIT_OK;
        }
    static options o;
    memset(&o, 0, sizeof o);
    o.ms = 50;
    o.max = 60;
    o.per_game = 3;
    o.seed = 1;
    if (parse_args(&o, argc, argv) != 0)
        return EXIT_USAGE;
    if (o.regoal)
        return regoal(&o);
    char review[64], check[64];
    snprintf(review, sizeof review, "mcts:ms=%ld,threads=1", o.ms);
    snprintf(check, sizeof check, "mcts:ms=%ld,threads=1", o.ms * CHECK_FACTOR);
    maker m = {.o = &o,
               .review = player(review, o.seed),
               .check = player(check, o.seed + 1),
               .greedy = player("greedy", o.seed),
               .puzzles = json_array()};
    int status = m.review && m.check && m.greedy && m.puzzles ? EXIT_OK : EXIT_INVALID;
    for (int i = 0; i < o.nfrom && status == EXIT_OK; i++) {
        if ((long)json_array_size(m.puzzles) >= o.max)
            break;
        status = from_record(&m, o.from[i]);
    }
    if (status == EXIT_OK) {
        fprintf(stderr, "carcassonne puzzles: %zu %s from %ld %s\n", json_array_size(m.puzzles),
                cli_plural((long long)json_array_size(m.puzzles), "puzzle", "puzzles"), m.examined,
                cli_plural(m.examined, "position", "positions"));
        status = json_array_size(m.puzzles) ? write_set(&m, &o) : EXIT_INVALID;
        if (!json_array_size(m.puzzles))
            fprintf(stderr, "carcassonne puzzles: no position was clearly decided\n");
    }
    json_decref(m.puzzles);
    carc_player_free(m.review);
    carc_player_free(m.check);
    carc_player_free(m.greedy);
    return status;
}
