/* selfplay.c: `carcassonne selfplay`: games between random players. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cli.h"

static const char selfplay_usage[] =
    "usage: carcassonne selfplay --seed S --players N [--games K] [--record FILE]\n"
    "                            [--expansions LIST] [--rules LIST]\n"
    "\n"
    "Plays K games (default 1) between N random players (2..8). Each placement\n"
    "is chosen uniformly among the legal ones, and half of the time a follower\n"
    "goes on a uniformly chosen legal spot. Game i is dealt from seed S + i, so\n"
    "the same arguments always play the same games.\n"
    "\n"
    "  --record FILE       write each game's record: FILE itself for one game\n"
    "                      ('-' for standard output), FILE-1, FILE-2, ... (before\n"
    "                      its extension) for several ('-' only for one game)\n"
    "  --expansions LIST   play with these expansions (names separated by commas\n"
    "                      or spaces: river, inns-cathedrals,\n"
    "                      traders-builders; default none,\n"
    "                      the base game)\n"
    "  --rules LIST        rule variants (record names, e.g. small-city,\n"
    "                      river-keep-start, hand=3, reshuffle; default the\n"
    "                      standard rules)\n"
    "\n"
    "Exit status: 0 done, 1 out of memory, 2 bad arguments or a record that\n"
    "cannot be written.\n";

static char *record_path(const char *base, int game, int games)
{
    size_t n = strlen(base) + 24;
    char *path = malloc(n);
    if (!path)
        return NULL;
    if (games == 1) {
        snprintf(path, n, "%s", base);
        return path;
    }
    const char *slash = strrchr(base, '/');
    const char *dot = strrchr(base, '.');
    if (!dot || (slash && dot < slash) || dot == base || (slash && dot == slash + 1))
        dot = base + strlen(base);
    snprintf(path, n, "%.*s-%d%s", (int)(dot - base), base, game + 1, dot);
    return path;
}

static int write_record(const carc_game *g, uint64_t seed, const char *path)
{
    char headers[64] = "", number[24];
    snprintf(number, sizeof number, "%llu", (unsigned long long)seed);
    if (carc_header_append(headers, sizeof headers, "seed", number) != CARC_OK ||
        carc_header_append(headers, sizeof headers, "player-kind", "random") != CARC_OK)
        return -1;
    size_t need = carc_record_write(g, headers, NULL, 0);
    char *text = malloc(need + 1);
    if (!text)
        return -1;
    carc_record_write(g, headers, text, need + 1);
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    int ok = f && fputs(text, f) >= 0;
    if (f && f != stdout)
        ok = (fclose(f) == 0) && ok;
    free(text);
    return ok ? 0 : -1;
}

/* hand=N: holds a uniformly chosen tile of the hand (one that fits, when
 * any does), the tile carc_random_move() then plays. */
static void hold_random_tile(carc_game *g, carc_rng *rng)
{
    int hand[CARC_MAX_HAND], fit[CARC_MAX_HAND], nfit = 0;
    int n = carc_game_hand(g, carc_game_current_player(g), hand, CARC_MAX_HAND);
    for (int i = 0; i < n; i++) {
        carc_game_hold_tile(g, hand[i]);
        if (carc_legal_placements(g, NULL, 0) > 0)
            fit[nfit++] = hand[i];
    }
    if (nfit > 0)
        carc_game_hold_tile(g, fit[carc_rng_below(rng, (uint32_t)nfit)]);
    else if (n > 0)
        carc_game_hold_tile(g, hand[carc_rng_below(rng, (uint32_t)n)]);
}

/* Plays one game between random players; the players' choices come from
 * their own generator, seeded from the deal's seed. */
static void play_random_game(carc_game *g, uint64_t seed)
{
    carc_rng rng = carc_rng_seed(seed ^ 0x5DEECE66DULL);
    while (!carc_game_over(g)) {
        hold_random_tile(g, &rng);
        carc_move m = carc_random_move(g, &rng, 0.5);
        carc_game_play(g, m, NULL, 0, NULL);
    }
}

int cmd_selfplay(int argc, char **argv)
{
    uint64_t seed = 0, players = 0, games = 1;
    int have_seed = 0;
    const char *record = NULL;
    carc_rules rules = carc_rules_standard();
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(selfplay_usage, stdout);
            return EXIT_OK;
        }
        int takes_value = strcmp(a, "--seed") == 0 || strcmp(a, "--players") == 0 ||
                          strcmp(a, "--games") == 0 || strcmp(a, "--record") == 0 ||
                          strcmp(a, "--expansions") == 0 || strcmp(a, "--rules") == 0;
        if (!takes_value)
            return cli_usage_error("selfplay", "unknown argument '%s'", a);
        if (i + 1 >= argc)
            return cli_usage_error("selfplay", "%s needs a value", a);
        const char *v = argv[++i];
        if (strcmp(a, "--record") == 0) {
            record = v;
        } else if (strcmp(a, "--expansions") == 0) {
            if (cli_parse_expansions("selfplay", v, &rules) != 0)
                return EXIT_USAGE;
        } else if (strcmp(a, "--rules") == 0) {
            if (cli_parse_rules("selfplay", v, &rules) != 0)
                return EXIT_USAGE;
        } else if (strcmp(a, "--seed") == 0) {
            if (cli_parse_u64(v, &seed) < 0)
                return cli_usage_error("selfplay", "--seed takes a number, not '%s'", v);
            have_seed = 1;
        } else if (strcmp(a, "--players") == 0) {
            if (cli_parse_u64(v, &players) < 0 || players < CARC_MIN_PLAYERS ||
                players > CARC_MAX_PLAYERS)
                return cli_usage_error("selfplay", "--players takes 2 to 8, not '%s'", v);
        } else if (cli_parse_u64(v, &games) < 0 || games < 1 || games > 1000000) {
            return cli_usage_error("selfplay", "--games takes 1 to 1000000, not '%s'", v);
        }
    }
    if (!have_seed)
        return cli_usage_error("selfplay", "--seed is needed");
    if (!players)
        return cli_usage_error("selfplay", "--players is needed");
    if (record && strcmp(record, "-") == 0 && games > 1)
        return cli_usage_error("selfplay",
                               "--record - writes one game: with --games %llu give a FILE",
                               (unsigned long long)games);
    if (cli_check_rules("selfplay", &rules) != 0)
        return EXIT_USAGE;
    carc_game *g = carc_game_new((int)players, &rules, 0);
    if (!g) {
        fprintf(stderr, "carcassonne selfplay: cannot make the game (out of memory?)\n");
        return EXIT_INVALID;
    }
    FILE *summary = record && strcmp(record, "-") == 0 ? stderr : stdout;
    int status = EXIT_OK;
    for (uint64_t i = 0; i < games && status == EXIT_OK; i++) {
        uint64_t game_seed = seed + i;
        carc_game_reset(g, (int)players, &rules, game_seed);
        play_random_game(g, game_seed);
        fprintf(summary, "game %llu (seed %llu):", (unsigned long long)i + 1,
                (unsigned long long)game_seed);
        for (int p = 0; p < (int)players; p++)
            fprintf(summary, " %d", carc_game_score(g, p));
        fputc('\n', summary);
        if (record) {
            char *path = record_path(record, (int)i, (int)games);
            if (!path || write_record(g, game_seed, path) < 0) {
                fprintf(stderr, "carcassonne selfplay: cannot write %s: %s\n", path ? path : record,
                        strerror(errno));
                status = EXIT_USAGE;
            }
            free(path);
        }
    }
    carc_game_free(g);
    return status;
}
