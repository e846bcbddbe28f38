/* player.c: player specs, the public player calls, and the one place that
 * knows every strategy: it picks the one of the player's kind. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../error.h"
#include "ai.h"
#include "exact.h"
#include "greedy.h"
#include "mcts.h"
#include "random_player.h"
#include "search.h"
#include "star25.h"
#include "vanilla_mcts.h"

/* --- Specs ----------------------------------------------------------------------- */

typedef struct level {
    const char *name;
    uint64_t iters;
    int ms;
    int exact; /* the exact endgame solver in the last turns */
} level;

/* MCTS levels, easy to strongest. "normal" answers within about a second. */
static const level levels[] = {
    {"easy", 400, 0, 0},
    {"normal", 0, 1000, 0},
    {"hard", 0, 3000, 0},
    {"strongest", 0, 10000, 1},
};

/* net=default: the network committed with the sources. The build names
 * its file (CARC_NET_DEFAULT) and the assembler copies the file's bytes
 * into the library, so that an installed program or Python package has
 * it wherever it runs; a library built without the name reads the file
 * under the working folder (docs/learning.md). */
#ifdef CARC_NET_DEFAULT
__asm__(".pushsection .rodata\n"
        ".balign 16\n"
        ".globl carc_net_default_bytes\n"
        ".hidden carc_net_default_bytes\n"
        "carc_net_default_bytes:\n"
        ".incbin \"" CARC_NET_DEFAULT "\"\n"
        ".globl carc_net_default_end\n"
        ".hidden carc_net_default_end\n"
        "carc_net_default_end:\n"
        ".popsection\n");
extern const unsigned char carc_net_default_bytes[], carc_net_default_end[];
#endif

static carc_net *load_net(const char *name, char *err, size_t errcap)
{
    if (strcmp(name, "default") != 0)
        return carc_net_load(name, err, errcap);
#ifdef CARC_NET_DEFAULT
    char why[200];
    carc_net *net =
        carc_net_read(carc_net_default_bytes,
                      (size_t)(carc_net_default_end - carc_net_default_bytes), why, sizeof why);
    if (!net)
        format_error(err, errcap, "the built-in network: %s", why);
    return net;
#else
    return carc_net_load("data/nets/default.carcnet", err, errcap);
#endif
}

static int parse_number(const char *s, uint64_t max, uint64_t *out)
{
    if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 12)
        return -1;
    uint64_t v = strtoull(s, NULL, 10);
    if (v > max)
        return -1;
    *out = v;
    return 0;
}

static int parse_c(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v >= 0.0 && v <= 100.0))
        return -1;
    *out = v;
    return 0;
}

/* Reads one "key=value" option of a spec into `o`. */
static int parse_option(ai_kind kind, char *opt, ai_options *o, char *err, size_t cap)
{
    char *eq = strchr(opt, '=');
    if (!eq)
        return format_error(err, cap, "option '%s' needs a value (key=value)", opt);
    *eq = '\0';
    const char *key = opt, *val = eq + 1;
    uint64_t v;
    if (strcmp(key, "ms") == 0 && kind != AI_RANDOM && kind != AI_GREEDY) {
        if (parse_number(val, 3600000, &v) || v == 0)
            return format_error(err, cap, "ms must be 1..3600000, not '%s'", val);
        o->ms = (int)v;
        o->iters = 0;
    } else if (strcmp(key, "iters") == 0 && (kind == AI_MCTS || kind == AI_VANILLA_MCTS)) {
        if (parse_number(val, 100000000, &v) || v == 0)
            return format_error(err, cap, "iters must be 1..100000000, not '%s'", val);
        o->iters = v;
        o->ms = 0;
    } else if (strcmp(key, "threads") == 0 && kind == AI_MCTS) {
        if (parse_number(val, 64, &v) || v == 0)
            return format_error(err, cap, "threads must be 1..64, not '%s'", val);
        o->threads = (int)v;
    } else if (strcmp(key, "c") == 0 && (kind == AI_MCTS || kind == AI_VANILLA_MCTS)) {
        if (parse_c(val, &o->c))
            return format_error(err, cap, "c must be a number 0..100, not '%s'", val);
    } else if ((strcmp(key, "own") == 0 || strcmp(key, "win") == 0) && kind == AI_MCTS) {
        double *weight = key[0] == 'o' ? &o->own : &o->win;
        if (parse_c(val, weight) || *weight > 1.0)
            return format_error(err, cap, "%s must be a number from 0 to 1, not '%s'", key, val);
    } else if (strcmp(key, "depth") == 0 && kind == AI_STAR25) {
        if (parse_number(val, 5, &v) || v == 0)
            return format_error(err, cap, "depth must be 1..5, not '%s'", val);
        o->depth = (int)v;
    } else if (strcmp(key, "probe") == 0 && kind == AI_STAR25) {
        if (parse_number(val, 24, &v) || v == 0)
            return format_error(err, cap, "probe must be 1..24, not '%s'", val);
        o->probe = (int)v;
    } else if ((strcmp(key, "exact") == 0 || strcmp(key, "ismcts") == 0) && kind == AI_MCTS) {
        if (strcmp(val, "0") != 0 && strcmp(val, "1") != 0)
            return format_error(err, cap, "%s must be 0 or 1, not '%s'", key, val);
        *(key[0] == 'e' ? &o->exact : &o->ismcts) = val[0] == '1';
    } else if (strcmp(key, "deep") == 0 && kind == AI_MCTS) {
        if (parse_number(val, 1000000, &v))
            return format_error(err, cap, "deep must be 0..1000000 visits, not '%s'", val);
        o->deep = (int)v;
    } else if (strcmp(key, "eval") == 0 && (kind == AI_GREEDY || kind == AI_MCTS)) {
        if (strcmp(val, "basic") == 0)
            o->eval = AI_EVAL_BASIC;
        else if (strcmp(val, "full") == 0)
            o->eval = AI_EVAL_FULL;
        else
            return format_error(err, cap, "eval must be basic or full, not '%s'", val);
    } else if (strcmp(key, "net") == 0 && kind == AI_MCTS) {
        if (!*val || strlen(val) >= sizeof o->net)
            return format_error(err, cap, "net must name a .carcnet file of at most %zu characters",
                                sizeof o->net - 1);
        snprintf(o->net, sizeof o->net, "%s", val);
    } else if ((strcmp(key, "blend") == 0 || strcmp(key, "puct") == 0) && kind == AI_MCTS) {
        double *weight = key[0] == 'b' ? &o->blend : &o->puct;
        if (parse_c(val, weight) || (key[0] == 'b' && *weight > 1.0))
            return format_error(err, cap, "%s must be a number from 0 to %s, not '%s'", key,
                                key[0] == 'b' ? "1" : "100", val);
    } else if (strcmp(key, "level") == 0 && kind == AI_MCTS) {
        size_t i;
        for (i = 0; i < sizeof levels / sizeof levels[0]; i++)
            if (strcmp(val, levels[i].name) == 0)
                break;
        if (i == sizeof levels / sizeof levels[0])
            return format_error(err, cap, "unknown level '%s' (easy, normal, hard, strongest)",
                                val);
        o->ms = levels[i].ms;
        o->iters = levels[i].iters;
        o->exact = levels[i].exact;
    } else {
        return format_error(err, cap, "unknown option '%s' for this player", key);
    }
    return 0;
}

static void default_options(ai_kind kind, ai_options *o)
{
    memset(o, 0, sizeof *o);
    switch (kind) {
    case AI_MCTS:
        o->ms = levels[1].ms;
        o->iters = levels[1].iters;
        o->threads = 2;
        o->c = 0.2;    /* 100-deal matches against greedy: 0.1 and 0.2 beat 0.7 */
        o->own = 0.25; /* self-play at 1 s: 98.8 a player over 50 deals (0: 80.0 on 6) */
        /* Information sets in hand games: 0.615 against the first-tile
         * search at 1 s a move (docs/strength.md, "Hidden hands"). */
        o->ismcts = 1;
        /* With net=FILE: the network's value weighs as much as the
         * evaluation's, its priors steer the root (docs/learning.md). */
        o->blend = 0.5;
        o->puct = 1.0;
        break;
    case AI_VANILLA_MCTS:
        o->iters = 100; /* Ameneyro et al.: 100 simulations per move */
        o->c = 3.0;
        o->threads = 1;
        break;
    case AI_STAR25:
        o->depth = 3;
        o->probe = 5;
        o->threads = 1;
        break;
    default: o->threads = 1; break;
    }
}

static void write_spec(carc_player *p)
{
    static const char *const names[] = {"random", "greedy", "mcts", "vanilla-mcts", "star25"};
    const ai_options *o = &p->opt;
    char *s = p->spec;
    size_t cap = sizeof p->spec;
    int n = snprintf(s, cap, "%s", names[p->kind]);
    char sep = ':';
    static const char *const evals[] = {"", "basic", "full"};
    if (p->kind == AI_GREEDY && o->eval)
        snprintf(s + n, cap - (size_t)n, ":eval=%s", evals[o->eval]);
    if (p->kind == AI_RANDOM || p->kind == AI_GREEDY)
        return;
    if (o->ms) {
        n += snprintf(s + n, cap - (size_t)n, "%cms=%d", sep, o->ms);
        sep = ',';
    } else if (o->iters) {
        n += snprintf(s + n, cap - (size_t)n, "%citers=%llu", sep, (unsigned long long)o->iters);
        sep = ',';
    }
    if (p->kind == AI_MCTS)
        n += snprintf(s + n, cap - (size_t)n, ",threads=%d", o->threads);
    if (p->kind == AI_MCTS || p->kind == AI_VANILLA_MCTS)
        n += snprintf(s + n, cap - (size_t)n, ",c=%g", o->c);
    if (p->kind == AI_MCTS)
        n += snprintf(s + n, cap - (size_t)n, ",own=%g", o->own);
    if (p->kind == AI_MCTS && o->win > 0)
        n += snprintf(s + n, cap - (size_t)n, ",win=%g", o->win);
    if (p->kind == AI_MCTS && o->eval)
        n += snprintf(s + n, cap - (size_t)n, ",eval=%s", evals[o->eval]);
    if (p->kind == AI_MCTS && o->exact)
        n += snprintf(s + n, cap - (size_t)n, ",exact=1");
    /* Off is spelled: records made before the default changed spell it
     * too, so their headers keep naming the search that played them. */
    if (p->kind == AI_MCTS && !o->ismcts)
        n += snprintf(s + n, cap - (size_t)n, ",ismcts=0");
    if (p->kind == AI_MCTS && o->net[0])
        n +=
            snprintf(s + n, cap - (size_t)n, ",net=%s,blend=%g,puct=%g", o->net, o->blend, o->puct);
    if (p->kind == AI_MCTS && o->net[0] && o->deep)
        n += snprintf(s + n, cap - (size_t)n, ",deep=%d", o->deep);
    if (p->kind == AI_STAR25)
        snprintf(s + n, cap - (size_t)n, "%cdepth=%d,probe=%d", sep, o->depth, o->probe);
}

carc_player *carc_player_new(const char *spec, uint64_t seed, char *err, size_t errcap)
{
    static const struct {
        const char *name;
        ai_kind kind;
    } kinds[] = {
        {"random", AI_RANDOM}, {"greedy", AI_GREEDY},
        {"mcts", AI_MCTS},     {"vanilla-mcts", AI_VANILLA_MCTS},
        {"star25", AI_STAR25},
    };
    if (err && errcap)
        err[0] = '\0';
    if (!spec || strlen(spec) >= 120) {
        format_error(err, errcap, "%s", "a player spec must be given, at most 119 characters");
        return NULL;
    }
    char buf[128];
    snprintf(buf, sizeof buf, "%s", spec);
    char *colon = strchr(buf, ':');
    if (colon)
        *colon = '\0';
    size_t k;
    for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (strcmp(buf, kinds[k].name) == 0)
            break;
    if (k == sizeof kinds / sizeof kinds[0]) {
        format_error(err, errcap,
                     "unknown player '%s' (random, greedy, mcts, vanilla-mcts, star25)", buf);
        return NULL;
    }
    carc_player *p = calloc(1, sizeof *p);
    if (!p) {
        format_error(err, errcap, "%s", "out of memory");
        return NULL;
    }
    p->kind = kinds[k].kind;
    default_options(p->kind, &p->opt);
    if (colon) {
        char *rest = colon + 1;
        if (!*rest) {
            format_error(err, errcap, "%s", "a ':' must be followed by options");
            free(p);
            return NULL;
        }
        for (char *opt = rest; opt;) {
            char *comma = strpbrk(opt, ",+"); /* options join with ',' or '+' */
            if (comma)
                *comma = '\0';
            if (parse_option(p->kind, opt, &p->opt, err, errcap)) {
                free(p);
                return NULL;
            }
            opt = comma ? comma + 1 : NULL;
        }
    }
    if (p->opt.net[0] && !(p->net = load_net(p->opt.net, err, errcap))) {
        free(p);
        return NULL;
    }
    atomic_init(&p->stop, 0);
    carc_player_reseed(p, seed);
    write_spec(p);
    return p;
}

void carc_player_free(carc_player *p)
{
    if (p)
        carc_net_free(p->net);
    free(p);
}

const char *carc_player_spec(const carc_player *p)
{
    return p->spec;
}

void carc_player_reseed(carc_player *p, uint64_t seed)
{
    p->seed = seed;
    p->rng = carc_rng_seed(seed);
}

void carc_player_stop(carc_player *p)
{
    atomic_store(&p->stop, 1);
}

/* --- Choosing and ranking ------------------------------------------------------------ */

/* mcts with exact=1: in the last turns (ai_exact_endgame_tiles), the exact solver
 * with at most half the move's time, then, when it could not end, the
 * search with the time left, so that the move never takes longer than
 * the time per move. Not with an iteration budget (no clock to share). */
static int rank_endgame(carc_player *p, const carc_game *g, carc_move_eval *out, int cap,
                        carc_search_info *info)
{
    int ms = p->opt.ms;
    if (!p->opt.exact || ms <= 0 ||
        carc_game_tiles_left(g, NULL) > ai_exact_endgame_tiles(carc_game_players(g)))
        return ai_mcts_rank(p, g, out, cap, info);
    double start = ai_now();
    ai_exact_budget budget = {0, ms * 0.5e-3, &p->stop, p->opt.threads};
    carc_exact_info exact;
    int n = ai_exact_rank(g, &budget, AI_EXACT_BEST_MOVE, out, cap, &exact);
    if (exact.exact) {
        info->iterations = exact.nodes;
        info->memory_bytes = exact.memory_bytes;
        return n;
    }
    int left = ms - (int)((ai_now() - start) * 1e3);
    p->opt.ms = left > 1 ? left : 1;
    n = ai_mcts_rank(p, g, out, cap, info);
    p->opt.ms = ms;
    return n;
}

static int rank(carc_player *p, const carc_game *g, carc_move_eval *out, int cap,
                carc_search_info *info)
{
    switch (p->kind) {
    case AI_RANDOM: return ai_random_rank(p, g, out, cap, info);
    case AI_GREEDY: return ai_greedy_rank(p, g, out, cap, info);
    case AI_MCTS: return rank_endgame(p, g, out, cap, info);
    case AI_VANILLA_MCTS: return ai_vanilla_rank(p, g, out, cap, info);
    case AI_STAR25: return ai_star25_rank(p, g, out, cap, info);
    }
    return 0;
}

/* hand=N: a player decides from what its seat knows (its information
 * set): a view of `g` whose hidden hands and pile order are dealt again
 * from the player's generator, never from the real ones. The searches
 * deal them again at every iteration (carc_game_shuffle_hidden). */
static int rank_hand(carc_player *p, const carc_game *g, carc_move_eval *out, int cap,
                     carc_search_info *info)
{
    carc_game *view = carc_game_clone(g);
    if (!view)
        return 0;
    int seat = carc_game_current_player(g);
    carc_game_seat_view(view, g, seat, carc_rng_next(&p->rng));
    /* MCTS searches every tile of the hand at once (its root); the random
     * player's first choice is among the whole hand. */
    int hand[CARC_MAX_HAND], size = carc_game_hand(view, seat, hand, CARC_MAX_HAND);
    if (p->kind == AI_RANDOM && size > 0)
        carc_game_hold_tile(view, hand[carc_rng_below(&p->rng, (uint32_t)size)]);
    int n = rank(p, view, out, cap, info);
    carc_game_free(view);
    return n;
}

int carc_player_rank(carc_player *p, const carc_game *g, carc_move_eval *out, int cap,
                     carc_search_info *info)
{
    carc_search_info local;
    if (!info)
        info = &local;
    memset(info, 0, sizeof *info);
    info->win = 0.5;
    atomic_store(&p->stop, 0);
    if (carc_game_over(g) || cap <= 0)
        return 0;
    double start = ai_now();
    int n = carc_game_rules(g).hand ? rank_hand(p, g, out, cap, info) : rank(p, g, out, cap, info);
    info->seconds = ai_now() - start;
    return n;
}

carc_status carc_player_choose(carc_player *p, const carc_game *g, carc_move *out,
                               carc_search_info *info)
{
    if (carc_game_over(g))
        return CARC_EOVER;
    carc_move_eval best;
    carc_search_info local;
    if (!info)
        info = &local;
    if (carc_player_rank(p, g, &best, 1, info) != 1)
        return CARC_EINVAL;
    *out = best.move;
    info->margin = best.margin;
    info->win = best.win;
    return CARC_OK;
}
