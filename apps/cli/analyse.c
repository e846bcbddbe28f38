/* analyse.c: `carcassonne analyse`: the best moves of a record's position,
 * by expected score margin and win chance, or a review of every move. */
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

static const char analyse_usage[] =
    "usage: carcassonne analyse [--ms N] [--top K] [--player SPEC] [--tile X]\n"
    "                           [--each-move] [--seed S] [--json] FILE\n"
    "       carcassonne analyse --exact [--exact-ms N] [--exact-threads T]\n"
    "                           [--top K] [--tile X] [--json] FILE\n"
    "\n"
    "Reads the game record FILE ('-' for standard input) and ranks the legal\n"
    "moves of the position after its last move with the expected final\n"
    "margin (the mover's score minus the best other score) and the estimated\n"
    "chance to win: best first by the chance to win, then the margin, as\n"
    "shown. A symmetric tile's move is listed once, at its lowest rotation.\n"
    "The record does not say which tile comes next: --tile names it, else\n"
    "one is drawn from the tiles left. In a game with a hand of tiles (rule\n"
    "hand=N) the moves of every tile the player holds are ranked against\n"
    "each other; --tile X then shows those of X alone.\n"
    "\n"
    "  --ms N        search time per position (default 1000; 100 with\n"
    "                --each-move); used by the default player\n"
    "  --top K       moves to show (default 5; with --exact every move unless\n"
    "                --top is given)\n"
    "  --player SPEC the player that ranks (default mcts:ms=N; greedy is\n"
    "                instant and shallow)\n"
    "  --tile X      the tile drawn in the last position (A..X, RA..RL, IA..IQ,\n"
    "                TA..TX); with a hand, the held tile whose moves to show\n"
    "  --each-move   review every move of the record: the played move's\n"
    "                expected margin against the best move's, and, per\n"
    "                player, the moves that lost the most (losses below\n"
    "                zero count as zero in the totals)\n"
    "  --seed S      seeds the player and the drawn tile (default 1)\n"
    "  --exact       every legal move (the best K with --top K) with its exact\n"
    "                expected final margin (expectiminimax over every draw\n"
    "                still to come; the tiles left at most %d); when the\n"
    "                solve does not end within its budget, says so and ranks\n"
    "                with the search\n"
    "  --exact-ms N  the exact solve's time budget (default 10000)\n"
    "  --exact-threads T\n"
    "                threads of the exact solve (default 2, as many as %d):\n"
    "                the same margins, sooner on a machine with the cores\n"
    "  --json        print one JSON object\n"
    "  --            the end of the options: a FILE after it may begin with '-'\n"
    "\n"
    "Exit status: 0 done, 1 invalid record or nothing to analyse, 2 bad\n"
    "arguments or unreadable FILE.\n";

enum { MAX_TOP = 100, WORST_PER_PLAYER = 3 };

typedef struct options {
    const char *path, *spec;
    long ms, top;
    int top_given; /* --top was given */
    int each_move, json, tile;
    uint64_t seed;
    int exact;          /* --exact */
    long exact_ms;      /* --exact-ms */
    int exact_given;    /* --exact-ms or --exact-threads was given */
    long exact_threads; /* --exact-threads */
} options;

/* The order of every ranking shown (move_list_sort()). */
static const char rank_order[] = "chance to win, then margin";

static json_t *number(double v)
{
    return json_real(isfinite(v) ? v : 0.0);
}

static void print_json(json_t *root)
{
    char *text = json_dumps(root, JSON_COMPACT | JSON_REAL_PRECISION(6));
    if (text)
        puts(text);
    free(text);
    json_decref(root);
}

static json_t *ranked_json(const carc_game *g, const carc_move_eval *evals, int n)
{
    json_t *list = json_array();
    for (int i = 0; i < n; i++) {
        char text[32];
        carc_move_write(g, evals[i].move, text, sizeof text);
        json_array_append_new(list, json_pack("{s:s, s:o, s:o, s:I}", "move", text, "margin",
                                              number(evals[i].margin), "win", number(evals[i].win),
                                              "visits", (json_int_t)evals[i].visits));
    }
    return list;
}

/* What the player to move places, for the headings: "tile V", or in a
 * game with a hand (whose every tile's moves are listed) "one of the
 * tiles held (V O S)". */
static const char *to_place(const carc_game *g, const options *o, char *buf, size_t cap)
{
    int kinds[CARC_MAX_HAND];
    int n = carc_game_rules(g).hand
                ? carc_game_hand(g, carc_game_current_player(g), kinds, CARC_MAX_HAND)
                : 0;
    if (n <= 0 || o->tile >= 0) { /* --tile in a hand game: that tile's moves */
        snprintf(buf, cap, "tile %s", carc_tile_id(carc_game_drawn_tile(g)));
        return buf;
    }
    if (n > CARC_MAX_HAND)
        n = CARC_MAX_HAND;
    if (n == 1) {
        snprintf(buf, cap, "tile %s, the one held", carc_tile_id(kinds[0]));
        return buf;
    }
    size_t len = (size_t)snprintf(buf, cap, "one of the tiles held (");
    for (int i = 0; i < n && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? " " : "", carc_tile_id(kinds[i]));
    if (len < cap)
        snprintf(buf + len, cap - len, ")");
    return buf;
}

/* The drawn tile is a guess (drawn from the tiles left) when --tile does
 * not name it; a hand's tiles are named by the record. */
static void print_guess(const carc_game *g, const options *o)
{
    const char *tile = carc_tile_id(carc_game_drawn_tile(g));
    if (o->tile < 0 && !carc_game_rules(g).hand)
        printf("  (tile %s is a guess from the tiles left; --tile names the drawn tile)\n", tile);
}

/* --- The exact endgame ---------------------------------------------------------------- */

static json_t *exact_json(const carc_game *g, const carc_move_eval *evals, int n)
{
    json_t *list = json_array();
    for (int i = 0; i < n; i++) {
        char text[32];
        carc_move_write(g, evals[i].move, text, sizeof text);
        json_array_append_new(
            list, json_pack("{s:s, s:o}", "move", text, "margin", number(evals[i].margin)));
    }
    return list;
}

static void print_exact(const carc_game *g, const carc_move_eval *evals, int n,
                        const carc_exact_info *info, const options *o)
{
    int mover = carc_game_current_player(g);
    const char *tile = carc_tile_id(carc_game_drawn_tile(g));
    /* Every move, unless --top asks for the best K only. */
    int shown = o->top_given && o->top < n ? (int)o->top : n;
    if (o->json) {
        print_json(json_pack("{s:b, s:i, s:i, s:s, s:o, s:I, s:f}", "exact", 1, "tiles_left",
                             info->tiles_left, "player", mover + 1, "tile", tile, "moves",
                             exact_json(g, evals, shown), "nodes", (json_int_t)info->nodes,
                             "seconds", info->seconds));
        return;
    }
    char placed[64], best[32] = "";
    if (shown < n)
        snprintf(best, sizeof best, ", the best %d shown", shown);
    printf("After move %d: player %d (%s) to place %s; %d %s left; %d legal %s with "
           "their exact expected final margins%s (%.2f s, %llu %s)\n",
           carc_game_move_count(g), mover + 1, cli_player_name(mover),
           to_place(g, o, placed, sizeof placed), info->tiles_left,
           cli_plural(info->tiles_left, "tile", "tiles"), n, cli_plural(n, "move", "moves"), best,
           info->seconds, (unsigned long long)info->nodes,
           cli_plural((long long)info->nodes, "position", "positions"));
    print_guess(g, o);
    printf("  rank  move               margin\n");
    for (int i = 0; i < shown; i++) {
        char text[32];
        carc_move_write(g, evals[i].move, text, sizeof text);
        printf("  %4d  %-17s %+9.4f\n", i + 1, text, evals[i].margin);
    }
}

/* The search's ranking when the exact solve gave up, said as such. */
static int exact_fallback(carc_game *g, carc_player *p, const carc_exact_info *info,
                          const options *o)
{
    fprintf(stderr, "carcassonne analyse: not exact: %s; ranked by %s instead\n", info->reason,
            carc_player_spec(p));
    carc_search_info search;
    int n;
    carc_move_eval *evals = move_list_rank(p, g, &n, &search);
    if (!evals)
        return EXIT_INVALID;
    int shown = n < o->top ? n : (int)o->top;
    if (o->json) {
        print_json(json_pack("{s:b, s:i, s:s, s:s, s:s, s:i, s:o, s:I, s:f}", "exact", 0,
                             "tiles_left", info->tiles_left, "reason", info->reason, "ranked_by",
                             carc_player_spec(p), "order", rank_order, "legal_moves", n, "moves",
                             ranked_json(g, evals, shown), "iterations",
                             (json_int_t)search.iterations, "seconds", search.seconds));
    } else {
        printf("Not exact (%s): ranked by %s, best first by %s\n", info->reason,
               carc_player_spec(p), rank_order);
        printf("  rank  move               margin     win\n");
        for (int i = 0; i < shown; i++) {
            char text[32];
            carc_move_write(g, evals[i].move, text, sizeof text);
            printf("  %4d  %-17s %+7.2f  %5.1f%%\n", i + 1, text, evals[i].margin,
                   100.0 * evals[i].win);
        }
    }
    free(evals);
    return EXIT_OK;
}

/* --exact: every move's exact margin, or the search's ranking. */
static int analyse_exact(carc_game *g, carc_player *p, const options *o)
{
    carc_move_eval *evals = malloc(sizeof *evals * CARC_MAX_MOVES);
    if (!evals) {
        fprintf(stderr, "carcassonne analyse: out of memory\n");
        return EXIT_INVALID;
    }
    carc_exact_info info;
    int n = carc_exact_rank_threads(g, 0, (int)o->exact_ms, (int)o->exact_threads, evals,
                                    CARC_MAX_MOVES, &info);
    int status = info.exact ? EXIT_OK : exact_fallback(g, p, &info, o);
    if (info.exact)
        print_exact(g, evals, n, &info, o);
    free(evals);
    return status;
}

/* --- The last position --------------------------------------------------------------- */

static int analyse_position(carc_game *g, carc_player *p, const options *o)
{
    if (carc_game_over(g)) {
        fprintf(stderr,
                "carcassonne analyse: the game is over: no move to rank (see --each-move)\n");
        return EXIT_INVALID;
    }
    int hand = carc_game_rules(g).hand > 0; /* --tile: a tile of the hand */
    if (o->tile >= 0 &&
        (hand ? carc_game_hold_tile(g, o->tile) : carc_game_choose_tile(g, o->tile)) != CARC_OK) {
        fprintf(stderr, "carcassonne analyse: --tile %s: %s\n", carc_tile_id(o->tile),
                carc_game_error(g));
        return EXIT_INVALID;
    }
    if (o->exact)
        return analyse_exact(g, p, o);
    carc_search_info info;
    int n;
    carc_move_eval *evals = move_list_rank(p, g, &n, &info);
    if (!evals)
        return EXIT_INVALID;
    if (hand && o->tile >= 0) {
        /* The search ranks every tile of the hand (each one's moves
         * against the others'); --tile keeps those of the tile it names,
         * in their order. */
        int kept = 0;
        for (int i = 0; i < n; i++)
            if (evals[i].move.place.tile == o->tile + 1)
                evals[kept++] = evals[i];
        n = kept;
    }
    int shown = n < o->top ? n : (int)o->top;
    int mover = carc_game_current_player(g);
    const char *tile = carc_tile_id(carc_game_drawn_tile(g));
    if (o->json) {
        print_json(json_pack("{s:i, s:i, s:s, s:s, s:s, s:i, s:o, s:I, s:f}", "moves_played",
                             carc_game_move_count(g), "player", mover + 1, "tile", tile,
                             "ranked_by", carc_player_spec(p), "order", rank_order, "legal_moves",
                             n, "best", ranked_json(g, evals, shown), "iterations",
                             (json_int_t)info.iterations, "seconds", info.seconds));
    } else {
        char placed[64];
        printf("After move %d: player %d (%s) to place %s; %d legal %s, ranked by %s "
               "(%.2f s, %llu %s)\n",
               carc_game_move_count(g), mover + 1, cli_player_name(mover),
               to_place(g, o, placed, sizeof placed), n, cli_plural(n, "move", "moves"),
               carc_player_spec(p), info.seconds, (unsigned long long)info.iterations,
               cli_plural((long long)info.iterations, "iteration", "iterations"));
        print_guess(g, o);
        printf("  best first by %s\n", rank_order);
        printf("  rank  move               margin     win     visits\n");
        for (int i = 0; i < shown; i++) {
            char text[32];
            carc_move_write(g, evals[i].move, text, sizeof text);
            printf("  %4d  %-17s %+7.2f  %5.1f%%  %9lu\n", i + 1, text, evals[i].margin,
                   100.0 * evals[i].win, (unsigned long)evals[i].visits);
        }
    }
    free(evals);
    return EXIT_OK;
}

/* --- Reviewing every move ------------------------------------------------------------- */

typedef struct review {
    int index, player;
    char played[32], best[32];
    double margin, win, best_margin, best_win, loss;
    int found; /* the played move was among the ranked ones */
} review;

/* Ranks `pos`, the position before the move of `step`, with the drawn
 * tile the step names, and compares the played move with the best one. */
/* hand=N: names the draws of `pos` still due as the record named them
 * (the draw log of `after`, a later position of the same record). */
static void name_draws(carc_game *pos, const carc_game *after)
{
    int d = carc_game_draw_count(pos) - carc_game_draw_due(pos, NULL), player, kind;
    for (; carc_game_draw_due(pos, NULL) > 0; d++)
        if (carc_game_draw_at(after, d, &player, &kind, NULL) != CARC_OK ||
            carc_game_draw(pos, player, kind) != CARC_OK)
            return;
}

static int review_move(carc_game *pos, const carc_replay_step *step, carc_player *p, review *r)
{
    if (carc_game_rules(pos).hand) {
        name_draws(pos, step->game);
        if (carc_game_hold_tile(pos, step->tile_kind) != CARC_OK)
            return -1;
    } else if (carc_game_drawn_tile(pos) != step->tile_kind &&
               carc_game_choose_tile(pos, step->tile_kind) != CARC_OK) {
        return -1;
    }
    memset(r, 0, sizeof *r);
    r->index = step->index + 1;
    r->player = step->player;
    carc_move_write(pos, step->move, r->played, sizeof r->played);
    int n;
    carc_move_eval *evals = move_list_rank(p, pos, &n, NULL);
    if (!evals || n == 0) {
        free(evals);
        return -1;
    }
    carc_move_write(pos, evals[0].move, r->best, sizeof r->best);
    r->best_margin = evals[0].margin;
    r->best_win = evals[0].win;
    /* Compared as written: a record's move names no tile (the drawn or
     * held one) where a hand game's ranked moves name theirs. */
    char listed[32], ranked[32];
    carc_move_write(pos, carc_move_canonical(pos, step->move), listed, sizeof listed);
    for (int k = 0; k < n && !r->found; k++) {
        carc_move_write(pos, evals[k].move, ranked, sizeof ranked);
        if (strcmp(ranked, listed) == 0) {
            r->found = 1;
            r->margin = evals[k].margin;
            r->win = evals[k].win;
            r->loss = r->best_margin - r->margin;
        }
    }
    free(evals);
    return 0;
}

/* What review_step() needs from one step of the record to the next. */
typedef struct reviewer {
    carc_player *player;
    carc_game *before; /* the position before the next move */
    review *reviews;
    int failed; /* the 1-based move whose position could not be ranked */
} reviewer;

/* carc_replay_fn: reviews each move of the record (not its `end`). */
static int review_step(void *ctx, const carc_replay_step *step)
{
    reviewer *rv = ctx;
    if (step->end)
        return 0;
    if (review_move(rv->before, step, rv->player, &rv->reviews[step->index]) < 0) {
        rv->failed = step->index + 1;
        return 1;
    }
    carc_game_copy(rv->before, step->game);
    return 0;
}

/* Indices into `reviews` of `player`'s WORST_PER_PLAYER largest losses. */
static int worst_moves(const review *reviews, int n, int player, int worst[WORST_PER_PLAYER])
{
    int count = 0;
    for (int i = 0; i < n; i++) {
        if (reviews[i].player != player || !reviews[i].found || reviews[i].loss <= 0.0)
            continue;
        int at = count < WORST_PER_PLAYER ? count++ : WORST_PER_PLAYER;
        while (at > 0 && reviews[worst[at - 1]].loss < reviews[i].loss) {
            if (at < WORST_PER_PLAYER)
                worst[at] = worst[at - 1];
            at--;
        }
        if (at < WORST_PER_PLAYER)
            worst[at] = i;
    }
    return count;
}

static void print_review_text(const review *reviews, int n, int players, const carc_player *p)
{
    printf("Review of %d %s, ranked by %s, best first by %s\n"
           "loss: the margin of the player's best-ranked move minus the played move's\n",
           n, cli_plural(n, "move", "moves"), carc_player_spec(p), rank_order);
    printf("  move  player   played             margin  best               margin   loss\n");
    for (int i = 0; i < n; i++) {
        const review *r = &reviews[i];
        printf("  %4d  %-7s  %-17s ", r->index, cli_player_name(r->player), r->played);
        if (r->found)
            printf("%+7.2f", r->margin);
        else
            printf("%7s", "?");
        printf("  %-17s %+7.2f  %5.2f\n", r->best, r->best_margin, r->loss);
    }
    for (int pl = 0; pl < players; pl++) {
        double total = 0;
        int moves = 0, worst[WORST_PER_PLAYER];
        for (int i = 0; i < n; i++)
            if (reviews[i].player == pl) {
                total += reviews[i].loss > 0 ? reviews[i].loss : 0.0;
                moves++;
            }
        int w = worst_moves(reviews, n, pl, worst);
        printf("player %d (%s): lost %.2f points of margin over %d %s", pl + 1, cli_player_name(pl),
               total, moves, cli_plural(moves, "move", "moves"));
        printf(w ? "; most at" : "\n");
        for (int k = 0; k < w; k++)
            printf(" move %d (%s, %.2f: %s was better)%s", reviews[worst[k]].index,
                   reviews[worst[k]].played, reviews[worst[k]].loss, reviews[worst[k]].best,
                   k + 1 < w ? "," : "\n");
    }
}

static void print_review_json(const review *reviews, int n, int players, const carc_player *p)
{
    json_t *moves = json_array(), *summary = json_array();
    for (int i = 0; i < n; i++) {
        const review *r = &reviews[i];
        json_array_append_new(moves,
                              json_pack("{s:i, s:i, s:s, s:o, s:o, s:s, s:f, s:f, s:o}", "move",
                                        r->index, "player", r->player + 1, "played", r->played,
                                        "margin", r->found ? number(r->margin) : json_null(), "win",
                                        r->found ? number(r->win) : json_null(), "best", r->best,
                                        "best_margin", r->best_margin, "best_win", r->best_win,
                                        "loss", r->found ? number(r->loss) : json_null()));
    }
    for (int pl = 0; pl < players; pl++) {
        double total = 0;
        int worst[WORST_PER_PLAYER];
        for (int i = 0; i < n; i++)
            total += reviews[i].player == pl && reviews[i].loss > 0 ? reviews[i].loss : 0.0;
        int w = worst_moves(reviews, n, pl, worst);
        json_t *list = json_array();
        for (int k = 0; k < w; k++)
            json_array_append_new(list, json_integer(reviews[worst[k]].index));
        json_array_append_new(summary, json_pack("{s:i, s:f, s:o}", "player", pl + 1, "total_loss",
                                                 total, "worst_moves", list));
    }
    print_json(json_pack("{s:s, s:s, s:o, s:o}", "ranked_by", carc_player_spec(p), "order",
                         rank_order, "moves", moves, "players", summary));
}

/* Reviews every move of the record `text` (`len` bytes), read before as
 * `record`. */
static int review_game(const char *text, size_t len, const carc_game *record, carc_player *p,
                       const options *o)
{
    int n = carc_game_move_count(record);
    carc_rules rules = carc_game_rules(record);
    reviewer rv = {p, carc_game_new(carc_game_players(record), &rules, o->seed),
                   calloc((size_t)n + 1, sizeof(review)), 0};
    int status = EXIT_INVALID;
    if (rv.before && rv.reviews) {
        carc_game *end = carc_record_replay(text, len, o->seed, review_step, &rv, NULL);
        status = end && !rv.failed ? EXIT_OK : EXIT_INVALID;
        carc_game_free(end);
    }
    if (rv.failed)
        fprintf(stderr, "carcassonne analyse: cannot rank the position before move %d\n",
                rv.failed);
    if (status == EXIT_OK && o->json)
        print_review_json(rv.reviews, n, carc_game_players(record), p);
    else if (status == EXIT_OK)
        print_review_text(rv.reviews, n, carc_game_players(record), p);
    free(rv.reviews);
    carc_game_free(rv.before);
    return status;
}

/* --- Arguments -------------------------------------------------------------------------- */

static int parse_value(options *o, const char *a, const char *v)
{
    uint64_t n = 0;
    if (strcmp(a, "--player") == 0) {
        o->spec = v;
    } else if (strcmp(a, "--tile") == 0) {
        o->tile = carc_tile_parse(v);
        if (o->tile < 0)
            return cli_usage_error(
                "analyse", "--tile takes a tile id (A..X, RA..RL, IA..IQ, TA..TX), not '%s'", v);
    } else if (strcmp(a, "--seed") == 0) {
        if (cli_parse_u64(v, &o->seed) < 0)
            return cli_usage_error("analyse", "--seed takes a number, not '%s'", v);
    } else if (strcmp(a, "--exact-ms") == 0) {
        if (cli_parse_u64(v, &n) < 0 || n < 1 || n > 3600000)
            return cli_usage_error("analyse", "--exact-ms takes 1 to 3600000, not '%s'", v);
        o->exact_ms = (long)n;
        o->exact_given = 1;
    } else if (strcmp(a, "--exact-threads") == 0) {
        if (cli_parse_u64(v, &n) < 0 || n < 1 || n > CARC_EXACT_MAX_THREADS)
            return cli_usage_error("analyse", "--exact-threads takes 1 to %d, not '%s'",
                                   CARC_EXACT_MAX_THREADS, v);
        o->exact_threads = (long)n;
        o->exact_given = 1;
    } else if (strcmp(a, "--ms") == 0) {
        if (cli_parse_u64(v, &n) < 0 || n < 1 || n > 3600000)
            return cli_usage_error("analyse", "--ms takes 1 to 3600000, not '%s'", v);
        o->ms = (long)n;
    } else {
        if (cli_parse_u64(v, &n) < 0 || n < 1 || n > MAX_TOP)
            return cli_usage_error("analyse", "--top takes 1 to %d, not '%s'", MAX_TOP, v);
        o->top = (long)n;
        o->top_given = 1;
    }
    return 0;
}

static int parse_args(options *o, int argc, char **argv)
{
    int operands = 0; /* after "--": no more options */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!operands && strcmp(a, "--") == 0) {
            operands = 1;
            continue;
        }
        if (operands) {
            if (o->path)
                return cli_usage_error("analyse", "only one FILE, please");
            o->path = a;
            continue;
        }
        int valued = strcmp(a, "--ms") == 0 || strcmp(a, "--top") == 0 ||
                     strcmp(a, "--player") == 0 || strcmp(a, "--tile") == 0 ||
                     strcmp(a, "--seed") == 0 || strcmp(a, "--exact-ms") == 0 ||
                     strcmp(a, "--exact-threads") == 0;
        if (strcmp(a, "--exact") == 0) {
            o->exact = 1;
        } else if (strcmp(a, "--each-move") == 0) {
            o->each_move = 1;
        } else if (strcmp(a, "--json") == 0) {
            o->json = 1;
        } else if (valued) {
            if (i + 1 >= argc)
                return cli_usage_error("analyse", "%s needs a value", a);
            if (parse_value(o, a, argv[++i]) != 0)
                return EXIT_USAGE;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_usage_error("analyse", "unknown option '%s'", a);
        } else if (o->path) {
            return cli_usage_error("analyse", "only one FILE, please");
        } else {
            o->path = a;
        }
    }
    if (!o->path)
        return cli_usage_error("analyse", "a FILE is needed");
    if (o->exact && o->each_move)
        return cli_usage_error("analyse", "--exact ranks the last position: not with --each-move");
    if (o->exact_given && !o->exact)
        return cli_usage_error("analyse", "--exact-ms and --exact-threads go with --exact");
    return 0;
}

static carc_player *make_player(const options *o)
{
    char spec[160], err[160];
    if (o->spec)
        snprintf(spec, sizeof spec, "%s", o->spec);
    else
        snprintf(spec, sizeof spec, "mcts:ms=%ld", o->ms ? o->ms : o->each_move ? 100 : 1000);
    carc_player *p = carc_player_new(spec, o->seed, err, sizeof err);
    if (!p)
        cli_usage_error("analyse", "--player: %s", err);
    return p;
}

int cmd_analyse(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf(analyse_usage, CARC_EXACT_MAX_TILES, CARC_EXACT_MAX_THREADS);
            return EXIT_OK;
        }
    options o = {.top = 5, .tile = -1, .seed = 1, .exact_ms = 10000, .exact_threads = 2};
    if (parse_args(&o, argc, argv) != 0)
        return EXIT_USAGE;
    carc_player *p = make_player(&o);
    if (!p)
        return EXIT_USAGE;
    size_t len = 0;
    char *text = cli_read_file(o.path, CARC_RECORD_MAX_BYTES, &len);
    if (!text) {
        fprintf(stderr, "carcassonne analyse: cannot read %s: %s\n", o.path, strerror(errno));
        carc_player_free(p);
        return EXIT_USAGE;
    }
    carc_record_error err;
    carc_game *g = carc_record_read(text, len, o.seed, &err);
    int status = EXIT_INVALID;
    if (!g)
        fprintf(stderr, "line %d: %s\n", err.line, err.message);
    else if (o.each_move && carc_game_move_count(g) == 0)
        fprintf(stderr, "carcassonne analyse: the record has no move to review\n");
    else if (o.each_move)
        status = review_game(text, len, g, p, &o);
    else
        status = analyse_position(g, p, &o);
    free(text);
    carc_game_free(g);
    carc_player_free(p);
    return status;
}
