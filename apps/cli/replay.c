/* replay.c: `carcassonne replay`: check a record and report its scores. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cli.h"
#include "deal_check.h"
#include "wire.h"

static const char replay_usage[] =
    "usage: carcassonne replay [--json] [--require-fair] FILE\n"
    "\n"
    "Reads the game record FILE ('-' for standard input), checks every move\n"
    "and prints the scores after the last move (after the final scoring when\n"
    "the game ended).\n"
    "\n"
    "  --json   print one JSON object: scores, finished, the expansions the\n"
    "           record plays with (e.g. [\"river\"]), the header lines as\n"
    "           [key, value] pairs, the digest of the public state\n"
    "           (carc_game_digest, 16 hex digits; a record in progress does\n"
    "           not say which tile comes next: seed 1 deals it), the deal\n"
    "           check as {\"status\": \"verified\"|\"unchecked\"|\"missing\",\n"
    "           \"text\": ...},\n"
    "           each player's figures left ({\"followers\": 7, \"large\": 1},\n"
    "           with traders-builders also \"builder\" and \"pig\"), each move\n"
    "           with its player and figure (\"follower\", \"large\", \"builder\",\n"
    "           \"pig\" or null) in \"history\", and more; with traders-builders\n"
    "           each player's \"goods\" ({\"wine\": 2, \"grain\": 0, \"cloth\": 1}),\n"
    "           \"goods_points\", a \"goods\" entry in each breakdown and each\n"
    "           move's \"second_part\" (a builder's second tile)\n"
    "  --require-fair  exit 1 unless the deal is verified: a record with no\n"
    "           commitment, or whose seed is not (or no longer) there, fails\n"
    "           too (for sites that publish games)\n"
    "  --       the end of the options: a FILE after it may begin with '-'\n"
    "\n"
    "A record with a `commitment` header (a server's record) has its deal\n"
    "checked: SHA-256 of `salt:seed` must be the commitment and the tiles\n"
    "dealt from `seed` must be the record's tiles. replay says \"deal verified\n"
    "(seed, salt, commitment)\" or \"no commitment: the deal was not checked\";\n"
    "a forged deal is an invalid record. A finished game reveals its seed: one\n"
    "whose `seed` line is gone says \"deal unchecked: the seed is missing ...\"\n"
    "(also on standard error); a game in progress has no seed yet.\n"
    "\n"
    "The record's `expansions` line says which expansions it plays with\n"
    "(e.g. `expansions river`); tile ids have one or two letters (`RD 1 0 0`).\n"
    "\n"
    "Exit status: 0 valid record, 1 invalid record ('line N: ...' on standard\n"
    "error) or, with --require-fair, a deal not verified, 2 bad arguments or\n"
    "unreadable FILE.\n";

static const carc_kind breakdown_kinds[4] = {CARC_ROAD, CARC_CITY, CARC_CLOISTER, CARC_FIELD};
static const char *const breakdown_names[4] = {"roads", "cities", "cloisters", "farms"};

/* The record's header lines as [key, value] pairs, in order. */
static json_t *headers_json(const char *text, size_t len)
{
    enum { MAX_HEADERS = 256 };
    carc_header h[MAX_HEADERS];
    json_t *list = json_array();
    int n = carc_record_headers(text, len, h, MAX_HEADERS, NULL);
    for (int i = 0; i < n && i < MAX_HEADERS; i++)
        json_array_append_new(
            list, json_pack("[s%s%]", h[i].key, h[i].key_len, h[i].value, h[i].value_len));
    return list;
}

/* The figure a move deployed: "follower", "large", "builder", "pig", or
 * null for none. */
static json_t *figure_json(carc_move m)
{
    if (m.type != CARC_MOVE_PLACE || m.segment == CARC_NO_SPOT)
        return json_null();
    return json_string(wire_figure_name(m.figure));
}

static int traders(const carc_game *g)
{
    return (carc_game_rules(g).expansions & CARC_EXPANSION_TRADERS_BUILDERS) != 0;
}

/* The history being built, and whether the next move is a second tile. */
typedef struct history_ctx {
    json_t *list;
    int second_part;
} history_ctx;

/* Appends each move of the record to the history `ctx`: its player, its
 * notation, its figure and, with Traders & Builders, whether it is a
 * builder's second tile (carc_record_replay()'s callback). */
static int history_step(void *ctx, const carc_replay_step *step)
{
    history_ctx *h = ctx;
    if (step->end)
        return 0;
    char text[64];
    carc_move_format(step->game, step->index, text, sizeof text);
    json_t *item = json_pack("{s:i, s:s, s:o}", "player", step->player + 1, "move", text, "figure",
                             figure_json(step->move));
    if (item && traders(step->game))
        json_object_set_new(item, "second_part", json_boolean(h->second_part));
    h->second_part = !carc_game_over(step->game) && carc_game_second_part(step->game);
    json_array_append_new(h->list, item);
    return 0;
}

/* Each player's figures in supply: {"followers": 7, "large": 1}, and with
 * Traders & Builders "builder" and "pig" (1 or 0). */
static json_t *figures_json(const carc_game *g)
{
    json_t *list = json_array();
    for (int p = 0; p < carc_game_players(g); p++) {
        json_t *f =
            json_pack("{s:i, s:i}", "followers", carc_game_figures(g, p, CARC_FIGURE_FOLLOWER),
                      "large", carc_game_figures(g, p, CARC_FIGURE_LARGE));
        if (f && traders(g)) {
            json_object_set_new(f, "builder",
                                json_integer(carc_game_figures(g, p, CARC_FIGURE_BUILDER)));
            json_object_set_new(f, "pig", json_integer(carc_game_figures(g, p, CARC_FIGURE_PIG)));
        }
        json_array_append_new(list, f);
    }
    return list;
}

/* Traders & Builders: each player's goods tokens and goods points. */
static void goods_json(json_t *root, const carc_game *g)
{
    json_t *goods = json_array(), *points = json_array();
    for (int p = 0; p < carc_game_players(g); p++) {
        json_array_append_new(goods, wire_player_goods(g, p));
        json_array_append_new(points, json_integer(carc_game_goods_points(g, p)));
    }
    json_object_set_new(root, "goods", goods);
    json_object_set_new(root, "goods_points", points);
}

static json_t *replay_json(const carc_game *g, json_t *headers, const deal_result *deal)
{
    int players = carc_game_players(g);
    json_t *scores = json_array(), *breakdown = json_array(), *supply = json_array();
    json_t *winners = json_array();
    unsigned leaders = carc_game_leaders(g);
    for (int p = 0; p < players; p++) {
        json_array_append_new(scores, json_integer(carc_game_score(g, p)));
        json_array_append_new(supply, json_integer(carc_game_supply(g, p)));
        json_t *b = json_object();
        for (int k = 0; k < 4; k++)
            json_object_set_new(b, breakdown_names[k],
                                json_integer(carc_game_score_of(g, p, breakdown_kinds[k])));
        if (traders(g))
            json_object_set_new(b, "goods", json_integer(carc_game_goods_points(g, p)));
        json_array_append_new(breakdown, b);
        if (carc_game_over(g) && (leaders & (1u << p)))
            json_array_append_new(winners, json_integer(p + 1));
    }
    json_t *root = json_object();
    json_object_set_new(root, "players", json_integer(players));
    json_object_set_new(root, "expansions", wire_expansions(carc_game_rules(g)));
    json_object_set_new(root, "scores", scores);
    json_object_set_new(root, "finished", json_boolean(carc_game_over(g)));
    json_object_set_new(root, "moves", json_integer(carc_game_move_count(g)));
    json_object_set_new(root, "tiles_left",
                        json_integer(carc_game_tiles_left(g, NULL) + !carc_game_over(g)));
    json_object_set_new(root, "breakdown", breakdown);
    json_object_set_new(root, "supply", supply);
    json_object_set_new(root, "figures", figures_json(g));
    if (traders(g))
        goods_json(root, g);
    json_object_set_new(root, "winners", winners);
    char digest[17];
    snprintf(digest, sizeof digest, "%016llx", (unsigned long long)carc_game_digest(g));
    json_object_set_new(root, "digest", json_string(digest));
    json_object_set_new(root, "headers", headers);
    json_object_set_new(
        root, "deal",
        json_pack("{s:s, s:s}", "status", deal_status_name(deal->status), "text", deal->text));
    return root;
}

static void replay_text(const carc_game *g, const deal_result *deal)
{
    int players = carc_game_players(g);
    unsigned leaders = carc_game_leaders(g);
    for (int p = 0; p < players; p++) {
        printf("player %d (%s): %d %s (roads %d, cities %d, cloisters %d, farms %d)%s\n", p + 1,
               cli_player_name(p), carc_game_score(g, p),
               cli_plural(carc_game_score(g, p), "point", "points"),
               carc_game_score_of(g, p, CARC_ROAD), carc_game_score_of(g, p, CARC_CITY),
               carc_game_score_of(g, p, CARC_CLOISTER), carc_game_score_of(g, p, CARC_FIELD),
               carc_game_over(g) && (leaders & (1u << p)) ? "  winner" : "");
        if (traders(g))
            printf("  goods: %d wine, %d grain, %d cloth; %d %s for goods\n",
                   carc_game_goods(g, p, CARC_GOODS_WINE), carc_game_goods(g, p, CARC_GOODS_GRAIN),
                   carc_game_goods(g, p, CARC_GOODS_CLOTH), carc_game_goods_points(g, p),
                   cli_plural(carc_game_goods_points(g, p), "point", "points"));
    }
    char names[120];
    if (carc_game_rules(g).expansions)
        printf("expansions: %s\n",
               cli_expansions_text(carc_game_rules(g), names, sizeof names, " ", ""));
    int moves = carc_game_move_count(g), left = carc_game_tiles_left(g, NULL) + 1;
    if (carc_game_over(g))
        printf("finished after %d %s\n", moves, cli_plural(moves, "move", "moves"));
    else
        printf("in progress after %d %s, %d %s left\n", moves, cli_plural(moves, "move", "moves"),
               left, cli_plural(left, "tile", "tiles"));
    printf("%s\n", deal->text);
}

/* Prints the record's replay as one JSON object (--json). */
static void print_json(const char *text, size_t len, const carc_game *g, const deal_result *deal)
{
    carc_record_error err;
    history_ctx history = {json_array(), 0};
    carc_game *again = carc_record_replay(text, len, 1, history_step, &history, &err);
    carc_game_free(again);
    json_t *root = replay_json(g, headers_json(text, len), deal);
    json_object_set_new(root, "history", history.list);
    char *out = json_dumps(root, JSON_COMPACT);
    if (out)
        puts(out);
    free(out);
    json_decref(root);
}

/* The exit status a valid record gets from its deal: with --require-fair
 * anything but a verified deal fails (EXIT_INVALID, the reason on standard
 * error). A finished game whose seed is missing is told on standard error
 * either way, where a player notices it. The report on standard output
 * is flushed first, so that the verdict comes after it. */
static int deal_verdict(const deal_result *deal, int require_fair)
{
    fflush(stdout);
    if (require_fair && deal->status != DEAL_VERIFIED) {
        fprintf(stderr, "carcassonne replay: --require-fair: the deal is not verified: %s\n",
                deal->text);
        return EXIT_INVALID;
    }
    if (deal->status == DEAL_MISSING)
        fprintf(stderr, "carcassonne replay: warning: %s\n", deal->text);
    return EXIT_OK;
}

int cmd_replay(int argc, char **argv)
{
    int json = 0, require_fair = 0, operands = 0; /* operands: after "--" */
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (operands) {
            if (path)
                return cli_usage_error("replay", "only one FILE, please");
            path = argv[i];
        } else if (strcmp(argv[i], "--") == 0) {
            operands = 1;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(replay_usage, stdout);
            return EXIT_OK;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[i], "--require-fair") == 0) {
            require_fair = 1;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_usage_error("replay", "unknown option '%s'", argv[i]);
        } else if (path) {
            return cli_usage_error("replay", "only one FILE, please");
        } else {
            path = argv[i];
        }
    }
    if (!path)
        return cli_usage_error("replay", "a FILE is needed");
    size_t len = 0;
    char *text = cli_read_file(path, CARC_RECORD_MAX_BYTES, &len);
    if (!text) {
        fprintf(stderr, "carcassonne replay: cannot read %s: %s\n", path, strerror(errno));
        return EXIT_USAGE;
    }
    carc_record_error err;
    carc_game *g = carc_record_read(text, len, 1, &err);
    if (!g) {
        fprintf(stderr, "line %d: %s\n", err.line, err.message);
        free(text);
        return EXIT_INVALID;
    }
    deal_result deal = {.status = DEAL_UNCHECKED};
    if (deal_check(text, len, g, &deal) == DEAL_MISMATCH) {
        fprintf(stderr, "carcassonne replay: %s\n", deal.text);
        free(text);
        carc_game_free(g);
        return EXIT_INVALID;
    }
    if (json)
        print_json(text, len, g, &deal);
    else
        replay_text(g, &deal);
    free(text);
    carc_game_free(g);
    return deal_verdict(&deal, require_fair);
}
