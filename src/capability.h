/* capability.h: what an expansion or a house rule is to the turn code
 * (not public): a table of hooks called at a few fixed points of a game.
 * Each capability fills in the hooks it needs (the others stay NULL) in
 * its own file and keeps its state in a part of carc_game it owns;
 * capabilities.h lists them and calls them. The turn code (game.c,
 * moves.c, scoring.c) calls the hooks through capabilities.h and names no
 * capability (scripts/lint.sh checks). docs/engine.md, "Adding a rule". */
#ifndef CARC_CAPABILITY_H
#define CARC_CAPABILITY_H

#include "state.h"
#include "digest.h"
#include "moves.h"
#include "scoring.h"

/* The parts of the pile: the main pile (0) and at most two laid above
 * it, each drawn before the parts below (capability.pile_part). */
enum { PILE_PARTS = 3 };

/* What the end of a turn decides, as bits passed from hook to hook. */
enum {
    TURN_AGAIN = 1,       /* the same player moves again */
    TURN_SECOND_TILE = 2, /* ... as the second part of this turn: no hand
                             is drawn up in between */
};

typedef struct capability {
    const char *name; /* its word in the record: carc_rule_name(), carc_expansion_name() */
    /* Whether the game plays it (always called first). */
    int (*in_game)(const carc_rules *rules);

    /* Set-up: its state for a new game, before the start tile; called in
     * every game, so that a game without it has that state empty. */
    void (*start)(carc_game *g);

    /* The tile source: the kind of the start tile it lays instead of the
     * base game's D; the copies of `kind` it puts in the pile, `count` as
     * the rules before it leave them; the part of the pile a kind lies
     * in (0 the main pile; a higher part lies above and is drawn first,
     * each part shuffled on its own); why a record may not name `kind`
     * for a draw that gave `drawn` (sets the error, returns 1). */
    int (*start_kind)(const carc_rules *rules);
    int (*pile_count)(const carc_rules *rules, int kind, int count);
    int (*pile_part)(int kind);
    int (*draw_error)(carc_game *g, int drawn, int kind);

    /* Placement: the squares and rotations of a kind it owns (a tile that
     * goes somewhere else than the fit table says), and why a placement
     * the fit table allows is refused (sets the error, returns 1). */
    int (*owns_kind)(int kind);
    unsigned (*rotations)(const carc_game *g, int square, int kind);
    void (*squares)(const carc_game *g, int kind, int *lo, int *hi);
    int (*placement_count)(const carc_game *g);
    int (*placement_error)(carc_game *g, carc_placement p);
    /* Open edges a placement closes beyond the board (a table's edge). */
    int (*edges_closed)(const carc_game *g, int kind, int rot, int x, int y, unsigned group);
    /* Squares around (x, y) that count as filled for a cloister there. */
    int (*cloister_filled)(const carc_game *g, int x, int y);

    /* Figures (figures.h): the figures other than followers it brings,
     * how many of `figure` (one of them) `player` has in supply, and that
     * figure taken from the supply onto board tile `tile` (NO_TILE: put
     * back into it); the local segments of `kind`
     * where no figure may stand, and why a move's spot takes no figure
     * (sets the error, returns 1); the current player's figures that
     * stand on a free spot as a follower does, into `figures` (returns
     * their number); whether the current player has figures that stand
     * elsewhere, their moves for `kind` at `rot` on frontier square
     * `square` touching the features `t`, appended to `opts` (returns
     * their number), and the check of such a move (returns 1 with the
     * status in `*st` for a figure it brings, else 0). A random move
     * chooses uniformly among all the placement's figure moves when
     * `random_all_figures`, else a free spot first, then the figure. */
    unsigned figures; /* the figures it brings: bit f for carc_figure f */
    int (*figure_left)(const carc_game *g, int player, int figure);
    void (*figure_moved)(carc_game *g, int player, int figure, int tile);
    unsigned (*no_figure_segments)(int kind);
    int (*spot_error)(carc_game *g, carc_move m);
    int (*spot_figures)(const carc_game *g, uint8_t *figures);
    int (*other_figures_left)(const carc_game *g);
    int (*figure_options)(const carc_game *g, int kind, int rot, int square, const touched *t,
                          figure_option *opts);
    int (*check_figure)(carc_game *g, carc_move m, int square, carc_status *st);
    int random_all_figures;

    /* Tile `t` was laid on the board by the current player (its edges
     * joined to its neighbours'): returns 1 when that closed a feature
     * beyond the board (an edge of the table). */
    int (*laid)(carc_game *g, int t);
    /* Tile `t` was placed by the current player, before its figure:
     * returns TURN_SECOND_TILE when the placement earns a second tile. */
    unsigned (*placed)(carc_game *g, int t, const move_fields *m);
    /* The end of a placing turn: `turn` as the hooks before left it
     * (TURN_* bits), returned as this rule leaves it. */
    unsigned (*turn_end)(carc_game *g, const move_fields *m, unsigned turn);
    /* The part of the current turn it counts (0 the first; a second tile
     * earned is 1), read and set back by a hand game that passes the turn
     * (hand.c): a turn passed to another player starts at part 0. */
    unsigned (*turn_part)(const carc_game *g);
    void (*set_turn_part)(carc_game *g, unsigned part);

    /* Scoring: a feature completed during play (after its own score);
     * the players with a figure on farm `farm` that adds to its worth and
     * that figure's points for them (`cities` a city, after the farm's
     * event `ev`); whether incomplete features score at the end; the
     * farms' final scoring when it replaces the standard one (returns 1);
     * its own final scoring after the farms. */
    void (*completed)(carc_game *g, int root, event_sink *sink);
    /* What a feature is worth under the rule (carc_feature_worth's
     * arguments), given `worth`, what the standard rules and the
     * capabilities before it in the list make it. */
    int (*worth)(int kind, int tiles, int pennants, unsigned marks, int complete, int worth);
    unsigned (*farm_bonus_players)(const carc_game *g, int farm);
    void (*farm_bonus)(carc_game *g, const carc_event *ev, unsigned players, int cities,
                       event_sink *sink);
    int (*incomplete_scores)(const carc_game *g);
    int (*score_farms)(carc_game *g, event_sink *sink);
    void (*final_scoring)(carc_game *g, event_sink *sink);

    /* The digest (carcassonne.h): its part after the rules, its part of
     * each player, its part after the players. */
    void (*digest_rules)(digest *d, const carc_game *g);
    void (*digest_player)(digest *d, const carc_game *g, int player);
    void (*digest_game)(digest *d, const carc_game *g);
} capability;

#endif
