/* capabilities.h: the one place that lists the capabilities (capability.h)
 * and calls their hooks (not public). The turn code calls caps_*(); each
 * call runs the hook of every capability the game plays, in the order of
 * the list. The tables are constants seen here, so the compiler calls
 * each hook directly and drops those left NULL: a game's turn costs what
 * it did when the rules were written into it. The compact layout (the
 * base game) lists only the house rules; the expansions need the wide
 * one. */
#ifndef CARC_CAPABILITIES_H
#define CARC_CAPABILITIES_H

#include "capability.h"
#include "bounds.h"
#include "house_rules.h"
#if LAYOUT_WIDE
#include "inns.h"
#include "river.h"
#include "traders.h"
#endif

/* In the order their hooks run: The River's placement errors before the
 * table's, the bonus turn's end of a turn before Traders & Builders'
 * (whose builder caps a turn at two tiles). */
#if LAYOUT_WIDE
#define CAPABILITIES(X)                                                                            \
    X(river)                                                                                       \
    X(table) X(bonus_turn) X(no_incomplete) X(small_city) X(farms_first_edition) X(inns) X(traders)
#else
#define CAPABILITIES(X) X(table) X(bonus_turn) X(no_incomplete) X(small_city) X(farms_first_edition)
#endif

#define CAP_ON(c, g, hook) (c##_capability.hook && c##_capability.in_game(&(g)->rules))

/* Every capability's state, whether the game plays it or not: the public
 * calls read it in any game (no goods without Traders & Builders). */
static inline void caps_start(carc_game *g)
{
#define X(c)                                                                                       \
    if (c##_capability.start)                                                                      \
        c##_capability.start(g);
    CAPABILITIES(X)
#undef X
}

/* The kind of the start tile. */
static inline int caps_start_kind(const carc_rules *rules)
{
    int kind = CARC_KIND_D;
#define X(c)                                                                                       \
    if (c##_capability.start_kind && c##_capability.in_game(rules))                                \
        kind = c##_capability.start_kind(rules);
    CAPABILITIES(X)
#undef X
    return kind;
}

/* The copies of `kind` in a new game's pile, `count` as the catalogue
 * and the start tile leave them. */
static inline int caps_pile_count(const carc_rules *rules, int kind, int count)
{
#define X(c)                                                                                       \
    if (c##_capability.pile_count && c##_capability.in_game(rules))                                \
        count = c##_capability.pile_count(rules, kind, count);
    CAPABILITIES(X)
#undef X
    return count;
}

/* Whether the pile has parts above the main pile, and the part of `kind`
 * (0: the main pile; -1, no tile, too). */
static inline int caps_pile_parted(const carc_game *g)
{
    int parted = 0;
#define X(c) parted |= CAP_ON(c, g, pile_part);
    CAPABILITIES(X)
#undef X
    return parted;
}

static inline int caps_pile_part(const carc_game *g, int kind)
{
    int part = 0;
#define X(c)                                                                                       \
    if (CAP_ON(c, g, pile_part)) {                                                                 \
        int p = c##_capability.pile_part(kind);                                                    \
        part = p > part ? p : part;                                                                \
    }
    CAPABILITIES(X)
#undef X
    return part;
}

/* Whether a capability refuses a record's naming `kind` for a draw that
 * gave `drawn` (the game's error says why). */
static inline int caps_draw_error(carc_game *g, int drawn, int kind)
{
#define X(c)                                                                                       \
    if (CAP_ON(c, g, draw_error) && c##_capability.draw_error(g, drawn, kind))                     \
        return 1;
    CAPABILITIES(X)
#undef X
    return 0;
}

/* Whether a capability places `kind` itself (its placement hooks then
 * answer for it). */
static inline int caps_owns_kind(const carc_game *g, int kind)
{
    int owned = 0;
#define X(c) owned |= CAP_ON(c, g, owns_kind) && c##_capability.owns_kind(kind);
    CAPABILITIES(X)
#undef X
    return owned;
}

/* The rotations of `kind`, owned by a capability, on frontier square f. */
static inline unsigned caps_rotations(const carc_game *g, int square, int kind)
{
    unsigned rots = 0;
#define X(c)                                                                                       \
    if (CAP_ON(c, g, rotations) && c##_capability.owns_kind(kind))                                 \
        rots = c##_capability.rotations(g, square, kind);
    CAPABILITIES(X)
#undef X
    return rots;
}

/* The frontier squares [*lo, *hi) where `kind`, owned by a capability,
 * may go. */
static inline void caps_squares_of(const carc_game *g, int kind, int *lo, int *hi)
{
    *lo = *hi = 0;
#define X(c)                                                                                       \
    if (CAP_ON(c, g, squares) && c##_capability.owns_kind(kind))                                   \
        c##_capability.squares(g, kind, lo, hi);
    CAPABILITIES(X)
#undef X
}

/* The legal placements of the drawn tile, owned by a capability. */
static inline int caps_placement_count(const carc_game *g)
{
    int n = 0;
#define X(c)                                                                                       \
    if (CAP_ON(c, g, placement_count) && c##_capability.owns_kind(g->drawn))                       \
        n = c##_capability.placement_count(g);
    CAPABILITIES(X)
#undef X
    return n;
}

/* Whether a capability refuses placement `p` (the game's error says why). */
static inline int caps_placement_error(carc_game *g, carc_placement p)
{
#define X(c)                                                                                       \
    if (CAP_ON(c, g, placement_error) && c##_capability.placement_error(g, p))                     \
        return 1;
    CAPABILITIES(X)
#undef X
    return 0;
}

static inline int caps_edges_closed(const carc_game *g, int kind, int rot, int x, int y,
                                    unsigned group)
{
    int n = 0;
#define X(c)                                                                                       \
    if (CAP_ON(c, g, edges_closed))                                                                \
        n += c##_capability.edges_closed(g, kind, rot, x, y, group);
    CAPABILITIES(X)
#undef X
    return n;
}

static inline int caps_cloister_filled(const carc_game *g, int x, int y)
{
    int n = 0;
#define X(c)                                                                                       \
    if (CAP_ON(c, g, cloister_filled))                                                             \
        n += c##_capability.cloister_filled(g, x, y);
    CAPABILITIES(X)
#undef X
    return n;
}

/* The figures other than followers in a game with `rules` (a bit each). */
static inline unsigned caps_figures(const carc_rules *rules)
{
    unsigned figures = 0;
#define X(c)                                                                                       \
    if (c##_capability.figures && c##_capability.in_game(rules))                                   \
        figures |= c##_capability.figures;
    CAPABILITIES(X)
#undef X
    return figures;
}

/* `player`'s supply of `figure`, a figure other than followers: 0 when
 * the game has none. */
static inline int caps_figure_left(const carc_game *g, int player, int figure)
{
#define X(c)                                                                                       \
    if (((c##_capability.figures >> figure) & 1u) && CAP_ON(c, g, figure_left))                    \
        return c##_capability.figure_left(g, player, figure);
    CAPABILITIES(X)
#undef X
    return 0;
}

/* `figure` taken from `player`'s supply onto board tile `tile`, or put
 * back (NO_TILE). */
static inline void caps_figure_moved(carc_game *g, int player, int figure, int tile)
{
#define X(c)                                                                                       \
    if (((c##_capability.figures >> figure) & 1u) && CAP_ON(c, g, figure_moved))                   \
        c##_capability.figure_moved(g, player, figure, tile);
    CAPABILITIES(X)
#undef X
}

static inline unsigned caps_no_figure_segments(const carc_game *g, int kind)
{
    unsigned segments = 0;
#define X(c)                                                                                       \
    if (CAP_ON(c, g, no_figure_segments))                                                          \
        segments |= c##_capability.no_figure_segments(kind);
    CAPABILITIES(X)
#undef X
    return segments;
}

static inline int caps_spot_error(carc_game *g, carc_move m)
{
#define X(c)                                                                                       \
    if (CAP_ON(c, g, spot_error) && c##_capability.spot_error(g, m))                               \
        return 1;
    CAPABILITIES(X)
#undef X
    return 0;
}

static inline int caps_spot_figures(const carc_game *g, uint8_t *figures)
{
    int n = 0;
#define X(c)                                                                                       \
    if (CAP_ON(c, g, spot_figures))                                                                \
        n += c##_capability.spot_figures(g, figures + n);
    CAPABILITIES(X)
#undef X
    return n;
}

static inline int caps_other_figures_left(const carc_game *g)
{
    int left = 0;
#define X(c) left |= CAP_ON(c, g, other_figures_left) && c##_capability.other_figures_left(g);
    CAPABILITIES(X)
#undef X
    return left;
}

static inline int caps_figure_options(const carc_game *g, int kind, int rot, int square,
                                      const touched *t, figure_option *opts)
{
    int n = 0;
#define X(c)                                                                                       \
    if (CAP_ON(c, g, figure_options))                                                              \
        n += c##_capability.figure_options(g, kind, rot, square, t, opts + n);
    CAPABILITIES(X)
#undef X
    return n;
}

/* Whether a capability checked the move of a figure it brings (its
 * status in `*st`). */
static inline int caps_check_figure(carc_game *g, carc_move m, int square, carc_status *st)
{
#define X(c)                                                                                       \
    if (CAP_ON(c, g, check_figure) && c##_capability.check_figure(g, m, square, st))               \
        return 1;
    CAPABILITIES(X)
#undef X
    return 0;
}

static inline int caps_random_all_figures(const carc_game *g)
{
    int all = 0;
#define X(c) all |= c##_capability.random_all_figures && c##_capability.in_game(&g->rules);
    CAPABILITIES(X)
#undef X
    return all;
}

/* Whether laying tile `t` closed a feature beyond the board. */
static inline int caps_laid(carc_game *g, int t)
{
    int closed = 0;
#define X(c)                                                                                       \
    if (CAP_ON(c, g, laid))                                                                        \
        closed |= c##_capability.laid(g, t);
    CAPABILITIES(X)
#undef X
    return closed;
}

static inline unsigned caps_placed(carc_game *g, int t, const move_fields *m)
{
    unsigned turn = 0;
#define X(c)                                                                                       \
    if (CAP_ON(c, g, placed))                                                                      \
        turn |= c##_capability.placed(g, t, m);
    CAPABILITIES(X)
#undef X
    return turn;
}

static inline unsigned caps_turn_end(carc_game *g, const move_fields *m, unsigned turn)
{
#define X(c)                                                                                       \
    if (CAP_ON(c, g, turn_end))                                                                    \
        turn = c##_capability.turn_end(g, m, turn);
    CAPABILITIES(X)
#undef X
    return turn;
}

/* The part of the current turn (0 the first), as the capabilities that
 * give a second tile count it; set back for a hand game's passed turn. */
static inline unsigned caps_turn_part(const carc_game *g)
{
    unsigned part = 0;
#define X(c)                                                                                       \
    if (CAP_ON(c, g, turn_part))                                                                   \
        part |= c##_capability.turn_part(g);
    CAPABILITIES(X)
#undef X
    return part;
}

static inline void caps_set_turn_part(carc_game *g, unsigned part)
{
#define X(c)                                                                                       \
    if (CAP_ON(c, g, set_turn_part))                                                               \
        c##_capability.set_turn_part(g, part);
    CAPABILITIES(X)
#undef X
}

static inline void caps_completed(carc_game *g, int root, event_sink *sink)
{
#define X(c)                                                                                       \
    if (CAP_ON(c, g, completed))                                                                   \
        c##_capability.completed(g, root, sink);
    CAPABILITIES(X)
#undef X
}

/* What a feature is worth under `rules`, `worth` being its standard
 * worth (carc_feature_worth, scoring.c). */
static inline int caps_worth(const carc_rules *rules, int kind, int tiles, int pennants,
                             unsigned marks, int complete, int worth)
{
#define X(c)                                                                                       \
    if (c##_capability.worth && c##_capability.in_game(rules))                                     \
        worth = c##_capability.worth(kind, tiles, pennants, marks, complete, worth);
    CAPABILITIES(X)
#undef X
    return worth;
}

/* The players whose figures on farm `farm` add to its worth for them. */
static inline unsigned caps_farm_bonus_players(const carc_game *g, int farm)
{
    unsigned players = 0;
#define X(c)                                                                                       \
    if (CAP_ON(c, g, farm_bonus_players))                                                          \
        players |= c##_capability.farm_bonus_players(g, farm);
    CAPABILITIES(X)
#undef X
    return players;
}

static inline void caps_farm_bonus(carc_game *g, const carc_event *ev, unsigned players, int cities,
                                   event_sink *sink)
{
#define X(c)                                                                                       \
    if (CAP_ON(c, g, farm_bonus))                                                                  \
        c##_capability.farm_bonus(g, ev, players, cities, sink);
    CAPABILITIES(X)
#undef X
}

static inline int caps_incomplete_scores(const carc_game *g)
{
    int scores = 1;
#define X(c)                                                                                       \
    if (CAP_ON(c, g, incomplete_scores))                                                           \
        scores &= c##_capability.incomplete_scores(g);
    CAPABILITIES(X)
#undef X
    return scores;
}

/* Whether a capability scored the farms its own way. */
static inline int caps_score_farms(carc_game *g, event_sink *sink)
{
#define X(c)                                                                                       \
    if (CAP_ON(c, g, score_farms) && c##_capability.score_farms(g, sink))                          \
        return 1;
    CAPABILITIES(X)
#undef X
    return 0;
}

static inline void caps_final_scoring(carc_game *g, event_sink *sink)
{
#define X(c)                                                                                       \
    if (CAP_ON(c, g, final_scoring))                                                               \
        c##_capability.final_scoring(g, sink);
    CAPABILITIES(X)
#undef X
}

static inline void caps_digest_rules(digest *d, const carc_game *g)
{
#define X(c)                                                                                       \
    if (CAP_ON(c, g, digest_rules))                                                                \
        c##_capability.digest_rules(d, g);
    CAPABILITIES(X)
#undef X
}

static inline void caps_digest_player(digest *d, const carc_game *g, int player)
{
#define X(c)                                                                                       \
    if (CAP_ON(c, g, digest_player))                                                               \
        c##_capability.digest_player(d, g, player);
    CAPABILITIES(X)
#undef X
}

static inline void caps_digest_game(digest *d, const carc_game *g)
{
#define X(c)                                                                                       \
    if (CAP_ON(c, g, digest_game))                                                                 \
        c##_capability.digest_game(d, g);
    CAPABILITIES(X)
#undef X
}

#undef CAP_ON

#endif
