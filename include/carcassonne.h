/* carcassonne.h: public API of the Carcassonne rules engine library. */
#ifndef CARCASSONNE_H
#define CARCASSONNE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------
 * Limits and basic types
 * ------------------------------------------------------------------------- */

enum {
    CARC_MIN_PLAYERS = 2,
    CARC_MAX_PLAYERS = 8, /* colours: red, blue, yellow, green, black, grey, purple, pink */
    CARC_FOLLOWERS = 7,   /* followers in each player's supply at start */
    /* Capacities, not facts of a game: the catalogue holds carc_tile_kinds()
     * kinds (the base game's 24 and the expansions'), a game as many tiles
     * as its tile set has (carc_game_tile_total()). Arrays indexed by a
     * tile kind take CARC_MAX_KINDS entries; a game never has more than
     * CARC_MAX_TILES tiles, start tile included. */
    CARC_MAX_KINDS = 96,
    CARC_MAX_TILES = 128,
    CARC_MAX_SEGMENTS_PER_TILE = 9,
    /* The frontier of n tiles has at most 2n + 2 squares; 4 rotations each. */
    CARC_MAX_PLACEMENTS = 4 * (2 * CARC_MAX_TILES + 2),
    CARC_MAX_SPOTS = CARC_MAX_SEGMENTS_PER_TILE,
    /* Upper bound of the score events one move can produce, final scoring
     * included: every event needs a follower on the board or a farm. */
    CARC_MAX_EVENTS = 96,
    CARC_NO_SPOT = 255,
    CARC_NO_TILE = -1,
};

/* Status codes. CARC_OK is zero; every failing call leaves the game as it
 * was and keeps a message, see carc_game_error(). */
typedef enum carc_status {
    CARC_OK = 0,
    CARC_EINVAL,   /* a bad argument: out of range, NULL, unknown name */
    CARC_EILLEGAL, /* a move the rules forbid in this position */
    CARC_EOVER,    /* the game has ended */
    CARC_ENOMEM,   /* an allocation failed */
    CARC_ESYNTAX,  /* a record that does not follow the notation */
} carc_status;

/* Kinds of segments and of the features they form. */
typedef enum carc_kind {
    CARC_ROAD = 0,
    CARC_CITY = 1,
    CARC_FIELD = 2,
    CARC_CLOISTER = 3,
    /* The River's river: an edge and a segment kind, never a feature (no
     * follower, never complete, never scored); it separates fields as a
     * road does. */
    CARC_RIVER = 4,
} carc_kind;

/* Edges and ports. An edge is N, E, S or W (0..3). The twelve ports run
 * clockwise from the north edge's west half, as in tiles.md. */
typedef enum carc_port {
    CARC_NNW,
    CARC_N,
    CARC_NNE,
    CARC_ENE,
    CARC_E,
    CARC_ESE,
    CARC_SSE,
    CARC_S,
    CARC_SSW,
    CARC_WSW,
    CARC_W,
    CARC_WNW,
    CARC_PORTS
} carc_port;

/* ---------------------------------------------------------------------------
 * The tile catalogue (read-only data)
 * ------------------------------------------------------------------------- */

/* Marks a segment may carry (Inns & Cathedrals, Traders & Builders): an
 * inn beside a road, a cathedral in a city, a city's goods. */
enum {
    CARC_MARK_INN = 1u << 0,
    CARC_MARK_CATHEDRAL = 1u << 1,
    CARC_MARK_WINE = 1u << 2,
    CARC_MARK_GRAIN = 1u << 3,
    CARC_MARK_CLOTH = 1u << 4,
};

typedef struct carc_segment_def {
    uint8_t kind;     /* carc_kind */
    uint8_t pennant;  /* 1 when this city segment carries a pennant */
    uint16_t ports;   /* bit p set: the segment holds port p (rotation 0);
                         0 for a cloister and for a field with no ports
                         (the record's spot C and F) */
    uint16_t borders; /* fields: bit i set: borders city segment i (a
                         tile's cities are its first segments) */
    uint8_t marks;    /* CARC_MARK_* */
} carc_segment_def;

typedef struct carc_tile_def {
    char id[4];       /* "A".."X" (base game), "RA".. (The River), "IA".. (Inns &
                         Cathedrals): 1 or 2 letters */
    uint8_t set;      /* 0: the base game, else its CARC_EXPANSION_* flag */
    uint8_t count;    /* copies in its set (the base start tile included) */
    uint8_t edges[4]; /* carc_kind of the N, E, S, W edges (rotation 0) */
    uint8_t nsegments;
    carc_segment_def segments[CARC_MAX_SEGMENTS_PER_TILE];
} carc_tile_def;

enum {
    /* Size of a buffer that holds any tile id and its NUL. */
    CARC_TILE_ID_SIZE = 4,
};

/* Kinds in the catalogue: kind k is 0 <= k < carc_tile_kinds(). The base
 * game's A..X are kinds 0..23, in that order; the expansions' follow. */
int carc_tile_kinds(void);
/* The definition of a tile kind, or NULL when out of range. */
const carc_tile_def *carc_tile(int kind);
/* The kind of a tile id ("A", "RD"; NUL-terminated, upper case, exact), or
 * -1. carc_tile_id() is its inverse ("?" for a kind out of range). */
int carc_tile_parse(const char *id);
const char *carc_tile_id(int kind);
/* carc_tile_parse() of the `len` bytes at `text` (no NUL needed). */
int carc_tile_parse_n(const char *text, size_t len);
/* Local segment of tile `kind` at rotation `rot` that holds board port
 * `port`, or -1 when no segment holds it. */
int carc_tile_segment_at(int kind, int rot, int port);
/* Ports (board directions) held by segment `seg` of `kind` at rotation `rot`. */
unsigned carc_tile_segment_ports(int kind, int rot, int seg);
/* Kind of edge `edge` (0 N .. 3 W, board directions) of `kind` at `rot`:
 * a carc_kind (CARC_ROAD, CARC_CITY, CARC_FIELD or CARC_RIVER), or -1. */
int carc_tile_edge(int kind, int rot, int edge);
/* Name of a port ("NNW" ...), or NULL. carc_port_parse() is its inverse
 * and returns -1 for an unknown name. */
const char *carc_port_name(int port);
int carc_port_parse(const char *name);
/* Name of a carc_kind for people: "road", "city", "farm", "cloister",
 * "river"; "?" for anything else. A field segment's feature is a farm
 * (CARC_FIELD names the segment, "farm" the feature it forms). */
const char *carc_kind_name(int kind);

/* ---------------------------------------------------------------------------
 * Rule options
 * ------------------------------------------------------------------------- */

/* Rule variants of rules.md; all off is the standard game. */
enum {
    CARC_RULE_FARMS_FIRST_EDITION = 1u << 0, /* 4 points per city, city side */
    CARC_RULE_SMALL_CITY = 1u << 1,          /* 2-tile city: 1 per tile and pennant */
    CARC_RULE_NO_INCOMPLETE = 1u << 2,       /* no final scoring of open features */
    CARC_RULE_BONUS_TURN = 1u << 3,          /* filling a hole gives another turn */
    CARC_RULE_RIVER_KEEP_START = 1u << 4,    /* The River: the base start tile
                                                goes into the main pile */
    /* The house rules of variants.md (docs/record-extensions.md). */
    CARC_RULE_OPEN_HANDS = 1u << 5,           /* hands shown to all (with hand=N) */
    CARC_RULE_RESHUFFLE = 1u << 6,            /* a tile that fits nowhere goes back */
    CARC_RULE_START_IN_PILE = 1u << 7,        /* the start tile is the first drawn */
    CARC_RULE_TABLE_EDGE_COMPLETES = 1u << 8, /* the table's edge closes features
                                                 (with table=WxH) */
    CARC_RULE_EXTRA_START_TILE = 1u << 9,     /* Big Box 5's separate start tile: an
                                                 extra D starts, all 72 base tiles
                                                 in the pile */
};

/* Limits of the valued house rules `hand=N` and `table=WxH`. */
enum {
    CARC_MAX_HAND = 3,
    CARC_MIN_TABLE = 3,
    CARC_MAX_TABLE = 199,
};

/* Bytes that hold carc_rules_format() of any rules, every rule with its
 * value, with a separator of at most two bytes, and its terminating NUL
 * (and so carc_expansions_format() too). */
enum { CARC_RULES_TEXT_MAX = 512 };

/* Expansions: the tile sets (and later figures) a game adds to the base
 * game. Their names in the record notation are "river", "inns-cathedrals"
 * and "traders-builders"; this version of the library plays all three. */
enum {
    CARC_EXPANSION_RIVER = 1u << 0,
    CARC_EXPANSION_INNS_CATHEDRALS = 1u << 1,
    CARC_EXPANSION_TRADERS_BUILDERS = 1u << 2,
    CARC_EXPANSIONS_SUPPORTED =
        CARC_EXPANSION_RIVER | CARC_EXPANSION_INNS_CATHEDRALS | CARC_EXPANSION_TRADERS_BUILDERS,
};

/* What a game is played with: rule variants and expansions. {0} is the
 * base game under the standard rules. */
typedef struct carc_rules {
    uint32_t flags;      /* CARC_RULE_* */
    uint32_t expansions; /* CARC_EXPANSION_* */
    uint8_t hand;        /* hand=N: tiles in a hand, 1..CARC_MAX_HAND; 0: no hand */
    uint8_t table_w;     /* table=WxH: odd, CARC_MIN_TABLE..CARC_MAX_TABLE; */
    uint8_t table_h;     /* both 0: a table without edges */
} carc_rules;

/* The standard rules (all flags off). */
carc_rules carc_rules_standard(void);
/* Whether `rules` can be played: known flags, supported expansions, rules
 * this version plays, values in range, and no rule without what it needs
 * (river-keep-start needs the river, open-hands a hand,
 * table-edge-completes a table) or with what it excludes (start-in-pile
 * with the river): the message names both rules.
 * CARC_EINVAL with the reason in `err` (may be NULL; "" on success). */
carc_status carc_rules_check(const carc_rules *rules, char *err, size_t errcap);
/* Turns a rule name of the record notation ("farms-first-edition", ...)
 * into its flag; 0 for an unknown name. */
uint32_t carc_rule_flag(const char *name);
/* Name of a single flag, or NULL. */
const char *carc_rule_name(uint32_t flag);
/* Reads a list of rule names of the record notation (NUL-terminated; the
 * names separated by spaces, tabs or commas, in any number; duplicates
 * allowed; "" is the standard rules) into `rules->flags`, `hand` and
 * `table_w`/`table_h`, leaving `rules->expansions` as it was. A valued rule
 * is written NAME=VALUE (`hand=3`, `table=9x7`): its value must be in range
 * (odd sizes for the table) and given once. CARC_EINVAL for a NULL
 * argument or an unknown name, with `*rules` unchanged and the reason in
 * `err` (may be NULL; NUL-terminated, at most `errcap` bytes; "" on
 * success). The record reader parses its `rules` line with it (spaces and
 * tabs only there, as record.md says). */
carc_status carc_rules_parse(const char *text, carc_rules *rules, char *err, size_t errcap);
/* The rules' wire form: a list of words, one rule name each, a valued one
 * as NAME=VALUE (`["bonus-turn", "hand=3"]`: the game server's and the
 * engine protocol's `rules` arrays, the Python package's rules list).
 * Read as carc_rules_parse() reads the words joined by spaces, but a word
 * holding a separator (a space, a tab or a comma) or empty is refused,
 * naming its place ("rules[2]: ..."); `n` 0 is the standard rules. Sets
 * the flags and the valued rules of `*rules`, leaving its expansions;
 * CARC_EINVAL with `*rules` unchanged and the reason in `err`. */
carc_status carc_rules_parse_words(const char *const *words, size_t n, carc_rules *rules, char *err,
                                   size_t errcap);
/* `a` with the rules of `b` added: the flags and expansions of both, and
 * b's valued rules (hand=N, table=WxH) where b sets them, a's elsewhere.
 * What a command line's --rules adds to what it had. */
carc_rules carc_rules_merge(carc_rules a, carc_rules b);
/* Whether `a` and `b` play the same game (1) or not (0): the same flags,
 * expansions and valued rules. */
int carc_rules_equal(const carc_rules *a, const carc_rules *b);
/* Writes the names of the flags set in `rules`, lowest flag first, then
 * `hand=N` and `table=WxH` when set, separated by `sep` (NULL: " "), into `buf` (NUL-terminated, at
 * most `cap` bytes; may be NULL when `cap` is 0) and returns the length without the NUL, like
 * snprintf. Flags without a name are left out; the standard rules give "". carc_rules_parse() reads
 * the result back with sep " " or
 * ",". */
size_t carc_rules_format(carc_rules rules, char *buf, size_t cap, const char *sep);
/* The squares of a bounded table (table=WxH), the start tile in its
 * middle at 0 0: columns *min_x..*max_x, rows *min_y..*max_y (a pointer
 * may be NULL). Returns 1, or 0 with nothing written for a table without
 * edges. */
int carc_rules_table_edge(const carc_rules *rules, int *min_x, int *min_y, int *max_x, int *max_y);
/* What a feature of `kind` is worth under `rules`: the one place the
 * library decides it (its scoring, carc_game_feature_info and the computer
 * players' evaluations all ask it). A road: 1 a tile; with an inn (`marks`
 * has CARC_MARK_INN) 2 a tile when `complete`, 0 when not; a city of
 * `tiles` tiles and `pennants` pennants: 2 each when `complete` (1 each
 * for a 2-tile city under small-city), 1 each when not; with a cathedral
 * (CARC_MARK_CATHEDRAL) 3 each when complete, 0 when not; a cloister:
 * `tiles` = itself and its neighbours; a farm: 3 (first edition: 4) for
 * each of `tiles` completed cities; the river: 0. */
int carc_feature_worth(const carc_rules *rules, int kind, int tiles, int pennants, unsigned marks,
                       int complete);
/* The flag of an expansion name ("river"), 0 when unknown; and the name of
 * a single flag, or NULL. */
uint32_t carc_expansion_flag(const char *name);
const char *carc_expansion_name(uint32_t flag);
/* The title of a single expansion's flag as its box prints it ("The
 * River", "Inns & Cathedrals", "Traders & Builders"), or NULL. */
const char *carc_expansion_title(uint32_t flag);
/* carc_rules_parse() and carc_rules_format() for the expansions: reads a
 * list of expansion names (spaces, tabs or commas between them; a name
 * given twice is an error, as in the record's `expansions` line) into
 * `rules->expansions`, leaving `rules->flags` alone; and writes the names
 * of `rules.expansions`. Unsupported but known names parse (check the
 * result with carc_rules_check()). */
carc_status carc_expansions_parse(const char *text, carc_rules *rules, char *err, size_t errcap);
size_t carc_expansions_format(carc_rules rules, char *buf, size_t cap, const char *sep);

/* ---------------------------------------------------------------------------
 * Moves
 * ------------------------------------------------------------------------- */

/* A square and a rotation for the drawn tile. */
typedef struct carc_placement {
    int8_t x, y; /* board square; x grows east, y grows south */
    uint8_t rot; /* 0..3 quarter turns clockwise */
    /* The tile of a move (carc_move.place.tile; a placement is one 32-bit
     * word): 0 for the drawn tile (carc_game_drawn_tile()), else 1 + its
     * kind, which must then be the drawn tile or, with hand=N, a tile of
     * the current player's hand. carc_legal_moves() writes 0 in a game
     * without a hand and 1 + the kind in a game with one; a discard names
     * its tile here too. 0 in the placements of carc_legal_placements()
     * (this byte was `reserved` before the house rules). */
    uint8_t tile;
} carc_placement;

/* A place for a follower on the tile just placed. */
typedef struct carc_spot {
    uint8_t segment; /* local segment index in the tile's definition */
    uint8_t kind;    /* carc_kind: the follower's role */
    uint8_t port;    /* a port the segment holds (board directions), or
                        CARC_PORTS for a cloister: the record's SPOT */
} carc_spot;

typedef enum carc_move_type {
    CARC_MOVE_PLACE = 0,
    CARC_MOVE_DISCARD = 1, /* only legal when the drawn tile fits nowhere */
} carc_move_type;

/* The figures a move may deploy on its spot. A follower is any game's;
 * the large follower (Inns & Cathedrals: one a player) counts 2 in every
 * majority and scores like a follower. Traders & Builders' builder (on a
 * road or city that holds a follower of its player) gives its player a
 * second tile when a later tile of theirs extends that feature; its pig
 * (on a farm with its player's farmer) makes that player's farm worth 4 a
 * city. Neither counts in a majority. */
typedef enum carc_figure {
    CARC_FIGURE_FOLLOWER = 0,
    CARC_FIGURE_LARGE = 1,
    CARC_FIGURE_BUILDER = 2,
    CARC_FIGURE_PIG = 3,
    CARC_FIGURES
} carc_figure;

/* Traders & Builders' trade goods, in the order of carc_event.goods and
 * carc_game_goods(). */
enum { CARC_GOODS_WINE = 0, CARC_GOODS_GRAIN = 1, CARC_GOODS_CLOTH = 2, CARC_GOODS_TYPES = 3 };

/* A move is a small value: 7 bytes. The tile it places or discards is
 * `place.tile` (carc_placement). */
typedef struct carc_move {
    uint8_t type; /* carc_move_type */
    carc_placement place;
    uint8_t segment; /* the figure's segment, or CARC_NO_SPOT */
    uint8_t figure;  /* carc_figure on `segment` (0: a follower) */
} carc_move;

/* Whether `a` and `b` are the same move: the same place.tile, square,
 * rotation, figure and its segment, or both discards of the same place.tile. Two rotations of a
 * symmetric tile that put the same tile on the board are different values: compare the
 * carc_move_canonical() of each to treat them as one move. */
int carc_move_equal(carc_move a, carc_move b);

/* ---------------------------------------------------------------------------
 * Score events
 * ------------------------------------------------------------------------- */

/* carc_event.bonus: 0 a feature's points; CARC_BONUS_PIG the pig's extra
 * point a city on a farm (`points` to `winners`, after the farm's own
 * event); CARC_BONUS_GOODS trade goods: a completed city's tokens to the
 * player who placed the tile (`winners`, `points` 0), or at the end 10
 * points for one goods type to the players holding most of it. */
enum { CARC_BONUS_PIG = 1, CARC_BONUS_GOODS = 2 };

typedef struct carc_event {
    uint8_t kind;                       /* carc_kind of the scored feature (FIELD: farm) */
    uint8_t complete;                   /* 1: completed in play; 0: final scoring */
    uint8_t winners;                    /* bit p: player p scores `points` */
    uint8_t returned[CARC_MAX_PLAYERS]; /* figures that went home, per player */
    uint8_t returned_large;             /* bit p: one of them is p's large follower */
    uint8_t bonus;                      /* CARC_BONUS_*: what the event scores */
    uint8_t goods[CARC_GOODS_TYPES];    /* CARC_BONUS_GOODS: tokens given to each winner
                                           (completed city) or held by each (final) */
    int16_t points;                     /* points each winner scores */
    int16_t tiles;                      /* tiles of the feature (cloister: itself and
                                           its neighbours; farm: completed cities) */
    int16_t pennants;
    int8_t x, y;      /* a tile of the feature */
    uint16_t feature; /* feature id, see carc_game_feature() */
} carc_event;

/* ---------------------------------------------------------------------------
 * The game
 * ------------------------------------------------------------------------- */

/* Every function below that takes a game needs a valid handle (not NULL). */
typedef struct carc_game carc_game;

/* Allocates a new game of `players` players (2..8) with the tile set and
 * rules of `rules` (NULL: the base game, standard rules), whose pile is
 * shuffled from `seed`, with the start tile placed and player 0's first
 * tile drawn. The state is sized for the tile set: the base game of up to
 * six players keeps a compact layout, a game with expansions or with seven
 * or eight players a wider one. Returns NULL only
 * when out of memory or on bad arguments (`players` out of range, rules
 * that carc_rules_check() refuses); free with carc_game_free(). */
carc_game *carc_game_new(int players, const carc_rules *rules, uint64_t seed);
void carc_game_free(carc_game *g);
/* Starts `g` over as carc_game_new() would, without allocating: the new
 * rules must have the same expansions as `g` (CARC_EINVAL otherwise). */
carc_status carc_game_reset(carc_game *g, int players, const carc_rules *rules, uint64_t seed);
/* Copies the whole state of `src` into `dst` (both allocated, with the
 * same expansions: CARC_EINVAL and nothing copied otherwise). Cheap: no
 * allocation, a few kilobytes copied. */
carc_status carc_game_copy(carc_game *dst, const carc_game *src);
/* A new game equal to `src`; free with carc_game_free(). */
carc_game *carc_game_clone(const carc_game *src);
/* Size in bytes of the state of a game with the expansions of `rules`
 * (NULL: the base game) and at most six players (seven or eight take the
 * size of a game with expansions). */
size_t carc_game_size(const carc_rules *rules);

/* Message of the last failing call on `g` ("" when none). */
const char *carc_game_error(const carc_game *g);

/* --- Whose turn, which tile ------------------------------------------------ */
int carc_game_players(const carc_game *g);
carc_rules carc_game_rules(const carc_game *g);
int carc_game_over(const carc_game *g);
int carc_game_current_player(const carc_game *g);
/* Kind of the tile drawn by the current player, or CARC_NO_TILE when over. */
int carc_game_drawn_tile(const carc_game *g);
/* Tiles still to be drawn (with The River: both piles), the drawn tile not
 * included. With `counts` non-NULL, fills counts[0 .. carc_tile_kinds())
 * with the tiles left of each kind. */
int carc_game_tiles_left(const carc_game *g, int counts[CARC_MAX_KINDS]);
/* Whether a tile of `kind` could be placed somewhere on the board now, in
 * some rotation (with The River, where the river goes on; with table=WxH,
 * on the table): the test of a discard and of reshuffle's ending. 0 for a
 * kind the game does not hold or once the game is over. */
int carc_game_kind_fits(const carc_game *g, int kind);
/* The tiles the next draw can give, and their number: the tiles left,
 * but while a river pile lasts only its tiles (and the lake only when it is
 * the last). What a chance node of a search or a tile-odds display needs. */
int carc_game_next_tiles(const carc_game *g, int counts[CARC_MAX_KINDS]);
/* The tiles the drawn tile was drawn from, as a player who has not seen it
 * counts them, and their number: the drawn tile and each tile left it could
 * have been instead (with The River, while the river is laid: the river
 * pile, and the lake only when it is the drawn tile). carc_game_choose_tile()
 * accepts exactly these kinds: the outcomes of a search's chance node. 0
 * when the game is over. */
int carc_game_draw_pool(const carc_game *g, int counts[CARC_MAX_KINDS]);
/* The number of tiles of the game's supply (start tile included), and of
 * `kind` in the pile at the start (start tile not included; 0 for a kind
 * the game's tile set lacks). */
int carc_game_tile_total(const carc_game *g);
int carc_game_kind_total(const carc_game *g, int kind);
/* Whether the river is being laid: the drawn tile comes from the river
 * pile. */
int carc_game_river_phase(const carc_game *g);
/* Puts the drawn tile back into the pile and draws a tile of `kind` instead
 * (a record, or a physical game, decides the draw). CARC_EILLEGAL when no
 * such tile is left, or when the next draw cannot give it (a main-pile tile
 * while the river is laid, the lake before the last river tile). */
carc_status carc_game_choose_tile(carc_game *g, int kind);
/* Shuffles the tiles left in the pile, the drawn tile included, from `seed`,
 * and draws again: a guess at the hidden order, for searches. */
void carc_game_shuffle_pile(carc_game *g, uint64_t seed);
/* Shuffles the tiles left in the pile from `seed`, keeping the drawn tile:
 * what the current player may know is kept, the hidden order is guessed.
 * The new order depends only on `seed` and the counts of tiles left. With
 * The River the river pile stays first (its lake last), the main pile after. */
void carc_game_shuffle_hidden(carc_game *g, uint64_t seed);
/* The hidden part of a game that its record does not hold: the order of
 * the pile and the state of the game's generator (which places a tile that
 * goes back into the pile: reshuffle). Writes the kinds of the tiles left
 * to draw, the next draw first, into `kinds` (at most `cap`; may be NULL
 * when `cap` is 0) and the generator's state into `*generator` (may be
 * NULL); returns how many tiles the pile holds (carc_game_tiles_left()),
 * like snprintf. For saving a game whole: its record and this restore it
 * (carc_game_set_deal()). Never show it to a player. */
int carc_game_deal(const carc_game *g, int *kinds, int cap, uint64_t *generator);
/* Restores what carc_game_deal() wrote: the pile in the order `kinds[0 ..
 * n)` (the next draw first) and the generator. `kinds` must hold the
 * tiles the pile holds, each kind as many times (n = carc_game_tiles_left()),
 * with a river tile wherever the pile has one (The River's pile stays on
 * top, its lake where it is); CARC_EINVAL with a message otherwise, and
 * nothing changed. */
carc_status carc_game_set_deal(carc_game *g, const int *kinds, int n, uint64_t generator);
/* Makes `dst` (allocated; may be `src`) a public view of `src`: a copy
 * holding everything a seat may know (the board, followers, scores,
 * supplies, the history, the drawn tile, the counts of tiles left, the
 * rules) and nothing it may not: the order of the pile is dealt again from
 * `seed`, and the generator and every stale byte of the pile depend only
 * on `seed` and the public state. In the base game every seat, and a
 * spectator, knows the same, so one view serves every viewer; with the
 * same `seed`, two games in the same public state give identical views.
 * The view plays on like any game (its later draws follow the new order).
 * No allocation. `dst` must have the expansions of `src` (else it is left
 * unchanged). */
void carc_game_public_view(carc_game *dst, const carc_game *src, uint64_t seed);
/* A 64-bit digest of the public state of `g`: equal for a game and its
 * public views, different (but for a 2^-64 chance) after any move, and the
 * same on every run and platform, so that a client can check a restored
 * game or its own copy against a server's. It is FNV-1a 64 (offset basis
 * 0xCBF29CE484222325, prime 0x100000001B3) over these bytes, numbers
 * little-endian, signed ones in two's complement:
 *   1 byte    digest version: 1 for the base game, 2 with expansions;
 *             3 and 4 the same with a hand (hand=N)
 *   1         players
 *   4         rules.flags
 *   4         (versions 2 and 4) rules.expansions
 *   1 + each  (versions 3 and 4) N, then per player the hand's size (1),
 *             with open-hands followed by its tile kinds in order
 *   1         player to move (0-based; after the game, the next one)
 *   1         drawn tile kind (0..23 in the base game), 255 when over
 *             (and in a hand game without open-hands: the held tile is
 *             hidden)
 *   1         game over (0 or 1)
 *   1         ended early by carc_game_finish(), the record's `end` (0 or 1)
 *   2         moves played (discards included)
 *   1         tiles left in the pile, the drawn tile not included
 *   24        tiles left of each kind A..X, the drawn tile not included;
 *             version 2: 1 byte K = carc_tile_kinds(), then K counts;
 *             with a hidden hand each count adds that kind's tiles in the
 *             hands (the tiles no seat has seen)
 *   5 each    per player: score (4, signed), followers in supply (1)
 *   1         tiles on the board, start tile included
 *   6 each    per tile in the order placed: x, y (signed), kind, rotation,
 *             follower segment (255 none), follower owner (255 none)
 * as carc_game_tile_info() reports them (but the owner is 255 whenever the
 * segment is). The pile's order, the generator and the last error are left
 * out. Two games whose symmetric tile was placed at two equivalent
 * rotations differ. */
uint64_t carc_game_digest(const carc_game *g);

/* --- A hand of tiles (hand=N), the house rules' draws ----------------------
 * With `rules.hand` N (1..3) each player holds up to N tiles
 * (variants.md). The library draws for the players itself, from the pile,
 * as the rules say: the set-up (N tiles each, in seat order, after the
 * start tile), a discarded hand tile's replacement (one tile, at once), and
 * the draw-up after a turn (back to N; fewer when the pile runs out). Every
 * draw is kept in the game's draw log (carc_game_draw_at()), which the
 * record writer writes as `draw P TILE...` lines.
 *
 * A reader of a record, the engine protocol or a server that decides the
 * draws itself names them afterwards: the tiles the library drew that
 * nobody has named yet are "due" (carc_game_draw_due()), and
 * carc_game_draw() names the next one, swapping the tile the library drew
 * for the named one. A move while a draw is due is still legal for the
 * library (it plays with the tiles it drew); the record reader refuses it.
 *
 * In a hand game the drawn tile (carc_game_drawn_tile()) is the tile of the
 * current player's hand that the one-tile queries answer about
 * (carc_legal_placements(), carc_placement_legal(), carc_legal_spots(),
 * carc_legal_figures(), carc_move_canonical(), carc_move_write(),
 * carc_random_move()): the first tile of the hand, until
 * carc_game_hold_tile() picks another; CARC_NO_TILE when the hand is
 * empty. carc_legal_moves() spans every tile of the hand. A hand tile that
 * fits nowhere may be discarded (CARC_MOVE_DISCARD, its `place.tile` set): the
 * same player then goes on with the replacement. A player whose hand is
 * empty is skipped. Without a hand, every function below answers as if
 * each hand were empty and the draw log held nothing. */

/* Writes the tiles of `player`'s hand (kinds, in the order drawn) into
 * `kinds` (at most `cap`; may be NULL when `cap` is 0) and returns how many
 * the hand holds, like snprintf. The hands are the game's truth: a seat
 * may see its own hand and, with open-hands, the others'; show a seat
 * carc_game_seat_view() to keep the rest hidden. 0 for a bad player. */
int carc_game_hand(const carc_game *g, int player, int *kinds, int cap);
/* Makes the current player's hand tile `kind` the drawn tile, the one the
 * one-tile queries answer about. CARC_EILLEGAL when the hand holds no
 * such tile; CARC_EINVAL without a hand; CARC_EOVER when the game is over.
 * Changes nothing else (not the digest). */
carc_status carc_game_hold_tile(carc_game *g, int kind);
/* Tiles the library drew that have not been named with carc_game_draw(),
 * and in `*player` (may be NULL) the player who drew the first of them (-1
 * when none is due). */
int carc_game_draw_due(const carc_game *g, int *player);
/* Names the next due draw: `player` (0-based) drew `kind`. The tile the
 * library drew goes back into the pile (at the same place) and `kind`,
 * taken from the pile, into the hand in its stead. CARC_EILLEGAL with a
 * message when no draw is due ("player 1's hand would hold more than 3
 * tiles": the record's "hand above N"), when the due draw is another
 * player's, or when no tile of `kind` is left in the pile (with The River:
 * in the pile the draw came from); CARC_EINVAL for a bad kind or player. */
carc_status carc_game_draw(carc_game *g, int player, int kind);
/* The draw log: the number of draws, and draw `i` (0-based, in order):
 * who drew (`*player`), which tile (`*kind`) and how many moves had been
 * played then (`*moves`: 0 for the set-up's draws; a draw-up or a
 * replacement after move j has j + 1). Each may be NULL. CARC_EINVAL when
 * `i` is out of range. */
int carc_game_draw_count(const carc_game *g);
carc_status carc_game_draw_at(const carc_game *g, int i, int *player, int *kind, int *moves);

/* What seat `seat` (0-based; -1: a spectator) may know of `src`, in `dst`
 * (allocated with the expansions of `src`; may be `src`): carc_game_public_view()
 * that keeps the seat's own hand (every hand with open-hands; none for a
 * spectator) and deals the other hands again from `seed`, with the pile's
 * order, out of the tiles the seat has not seen. With the same `seed`, two
 * games that differ only in what the seat cannot see give identical views.
 * The draw log of the view keeps the seat's own draws, the others' as
 * their hands were dealt again. Without a hand it is carc_game_public_view(). */
void carc_game_seat_view(carc_game *dst, const carc_game *src, int seat, uint64_t seed);

/* start-in-pile: the start tile is the first tile drawn (any kind of the
 * game's supply, at 0 0 rotation 0). carc_game_set_start() makes the start
 * tile `kind`, as a record's `start TILE` line says: allowed only before the
 * first move and before any due draw has been named; the tile on the board
 * goes back into the pile. CARC_EILLEGAL without the rule, after a move, or
 * when no tile of `kind` is left; the start tile's kind is
 * carc_game_tile_info() of tile 0. */
carc_status carc_game_set_start(carc_game *g, int kind);

/* --- Legal moves ----------------------------------------------------------- */
/* Writes the legal placements of the drawn tile into `out` (at most `cap`)
 * and returns how many there are (possibly more than `cap`). Zero means the
 * tile fits nowhere and the only legal move is a discard. */
int carc_legal_placements(const carc_game *g, carc_placement *out, int cap);
/* Whether the drawn tile may be placed at `p`. */
int carc_placement_legal(const carc_game *g, carc_placement p);
/* Writes the legal follower spots of the drawn tile placed at `p` (which
 * must be legal) into `out` and returns how many there are (0 when the
 * player has neither a follower nor the large follower in supply): the
 * segments whose feature holds no follower. The builder's and the pig's
 * segments are not spots of this list: carc_legal_figures() has every
 * figure move of a placement. */
int carc_legal_spots(const carc_game *g, carc_placement p, carc_spot *out, int cap);

/* Symmetric tiles. Some rotations of a symmetric tile put the same tile on
 * the board (U at rotations 1 and 3, C at all four): the same move given
 * twice. carc_legal_placements() and carc_random_move() count every
 * rotation that fits, duplicates included (so the count is one load and a
 * random placement is uniform over them); carc_legal_moves() lists each
 * distinct move once, at its canonical rotation: the lowest rotation that
 * puts the same tile on the board. */
enum {
    /* Upper bound of carc_legal_figures(): a segment takes at most two
     * figures (a follower and the large follower where the feature is
     * free; the builder or the pig where it holds its player's follower). */
    CARC_MAX_FIGURE_MOVES = 2 * CARC_MAX_SPOTS,
    /* Upper bound of carc_legal_moves(): every placement without a
     * figure and with each. */
    CARC_MAX_MOVES = CARC_MAX_PLACEMENTS * (1 + CARC_MAX_FIGURE_MOVES),
};
/* Writes every legal move of the current player into `out` (at most `cap`;
 * `out` may be NULL when `cap` is 0) and returns how many there are, like
 * snprintf (CARC_MAX_MOVES is always enough): for each legal placement at
 * its canonical rotation, in the order of carc_legal_placements(), the
 * placement without a figure, then with each figure it may deploy
 * (carc_legal_figures(): by segment, a follower then the large follower on
 * each spot of carc_legal_spots(), then the builder's and the pig's
 * segments); or the single discard when the tile fits nowhere; 0 when the
 * game is over. No allocation. With hand=N: the same for each distinct
 * kind of the current player's hand, in hand order, each move's `place.tile` set
 * (1 + kind), a hand tile that fits nowhere giving its discard (listed
 * also when another tile fits: the discard is optional then); the moves of
 * a real position stay far below CARC_MAX_MOVES. */
int carc_legal_moves(const carc_game *g, carc_move *out, int cap);
/* The legal moves of placement `p` of the drawn tile that deploy a figure
 * (a follower, the large follower, the builder, the pig), in the order of
 * carc_legal_moves(); 0 when `p` is not legal. Writes at most `cap` and
 * returns how many there are (at most CARC_MAX_FIGURE_MOVES). */
int carc_legal_figures(const carc_game *g, carc_placement p, carc_move *out, int cap);
/* `m`, a move of the drawn tile, at its canonical rotation, the follower
 * (if any) moved to the segment of that rotation which covers the same
 * board ports: the form carc_legal_moves() lists. A discard, a move that
 * is not a placement of the drawn tile's shape, or any move once the game
 * is over, comes back unchanged. */
carc_move carc_move_canonical(const carc_game *g, carc_move m);

/* --- Playing ----------------------------------------------------------------- */
/* Plays `m` for the current player: places the tile, deploys the follower,
 * scores completed features, draws the next tile; after the last tile, the
 * final scoring. Writes up to `cap` score events into `events` (may be NULL)
 * and the number of events the move produced into `*nevents` (may be NULL;
 * like snprintf, it can exceed `cap`: CARC_MAX_EVENTS is always enough). A
 * failing call changes nothing. */
carc_status carc_game_play(carc_game *g, carc_move m, carc_event *events, int cap, int *nevents);
/* The house rules change what follows a move (variants.md): with hand=N the
 * draws of the hand (see above); with reshuffle a discarded tile goes back
 * into the pile at a random place below its top and the same player draws
 * again, and the game ends when no tile left to draw (nor, with a hand, in
 * a hand) fits anywhere. */
/* Ends the game now (the record's `end`) and applies the final scoring. The
 * drawn tile, never played, goes back among the tiles left. */
carc_status carc_game_finish(carc_game *g, carc_event *events, int cap, int *nevents);

/* --- Scores and supply --------------------------------------------------------- */
int carc_game_score(const carc_game *g, int player);
/* Points of `player` from features of `kind` (farms: CARC_FIELD). */
int carc_game_score_of(const carc_game *g, int player, carc_kind kind);
int carc_game_supply(const carc_game *g, int player);
/* Figures of `figure` (carc_figure) in `player`'s supply: followers as
 * carc_game_supply(); the large follower, the builder and the pig 1 or 0
 * (always 0 without their expansion). */
int carc_game_figures(const carc_game *g, int player, int figure);
/* Trade goods tokens of `type` (CARC_GOODS_*) that `player` holds, and the
 * points `player` scored for goods at the end (Traders & Builders). */
int carc_game_goods(const carc_game *g, int player, int type);
int carc_game_goods_points(const carc_game *g, int player);
/* Whether the current player is playing a second tile this turn (a
 * builder's double turn, or a bonus turn in a game with Traders &
 * Builders): it never gives a third. */
int carc_game_second_part(const carc_game *g);
/* Bit mask of the players with the highest score. */
unsigned carc_game_leaders(const carc_game *g);

/* --- The board ------------------------------------------------------------------- */
typedef struct carc_tile_on_board {
    int8_t x, y;
    uint8_t kind, rot;
    uint8_t follower_segment; /* CARC_NO_SPOT when none stands here */
    uint8_t follower_owner;
    uint8_t follower_figure; /* carc_figure */
} carc_tile_on_board;

/* Tiles on the board, in the order they were placed (0 is the start tile). */
int carc_game_tile_count(const carc_game *g);
carc_status carc_game_tile_info(const carc_game *g, int index, carc_tile_on_board *out);
/* Index of the tile at (x, y), or -1. */
int carc_game_tile_at(const carc_game *g, int x, int y);
/* Bounding box of the tiles on the board. */
void carc_game_bounds(const carc_game *g, int *min_x, int *min_y, int *max_x, int *max_y);

/* --- Features ---------------------------------------------------------------------- */
typedef struct carc_feature {
    uint8_t kind;                        /* carc_kind */
    uint8_t complete;                    /* roads, cities: no open edge; cloisters:
                                            all eight neighbours; farms: never */
    uint8_t owners;                      /* bit p: p has the most followers here */
    uint8_t followers[CARC_MAX_PLAYERS]; /* each player's strength: a
                                            large follower counts 2 */
    uint8_t marks;                       /* CARC_MARK_* of its segments: an inn, a cathedral */
    int16_t tiles;                       /* distinct tiles covered */
    int16_t pennants;
    int16_t open_edges;   /* roads, cities: unmatched edges;
                             cloisters: empty neighbour squares */
    int16_t value;        /* points if completed now (completed
                             features: what they scored) */
    int16_t value_at_end; /* points if the game ended now (farms: 3
                             per completed bordering city) */
} carc_feature;

/* Feature id of segment `segment` of board tile `index`, or -1. Ids are
 * stable until the next move (merging features changes them). */
int carc_game_feature(const carc_game *g, int index, int segment);
carc_status carc_game_feature_info(const carc_game *g, int feature, carc_feature *out);
/* Whether segment `segment` of board tile `index` belongs to `feature`. */
int carc_game_feature_has(const carc_game *g, int feature, int index, int segment);

/* --- History and records ------------------------------------------------------------- */
/* Moves played so far (discards included), in order. */
int carc_game_move_count(const carc_game *g);
/* Move `i` and the tile kind it drew. */
carc_status carc_game_move_at(const carc_game *g, int i, carc_move *m, int *tile_kind);
/* The player (0-based) who made move `i`, or -1. */
int carc_game_move_player(const carc_game *g, int i);
/* Whether the game was ended early by carc_game_finish(). */
int carc_game_ended_early(const carc_game *g);

/* Error of a record, with the line it is on. */
typedef struct carc_record_error {
    int line;
    char message[160];
} carc_record_error;

/* Limits of the record reader. */
enum {
    CARC_RECORD_MAX_BYTES = 1 << 20,
    CARC_RECORD_MAX_LINE = 4096,
};

/* Reads the record `text` of `len` bytes (no NUL needed) and replays it.
 * On success, returns the game at the position after the last move (with
 * the final scoring applied when the game ended); free it with
 * carc_game_free(). On failure returns NULL and fills `*err`. `seed` decides
 * the order of the pile after the record's last move. */
carc_game *carc_record_read(const char *text, size_t len, uint64_t seed, carc_record_error *err);
/* Writes the record of `g` into `buf` (NUL-terminated, at most `cap` bytes)
 * and returns its length without the NUL, like snprintf: a return >= cap
 * means the buffer was too small. `headers` (may be NULL) is written as is
 * after the players and rules lines; each of its lines must be a valid
 * header line (build the text with carc_header_append()). */
size_t carc_record_write(const carc_game *g, const char *headers, char *buf, size_t cap);

/* --- Record headers ---------------------------------------------------------------------- */

/* One header line of a record, as views into the record's text (not
 * NUL-terminated: print with "%.*s"): the key (`players`, `rules`, or
 * another key such as `seed`, `seat-1`) and the value, the rest of the line
 * without its comment and without blanks at either end ("" when none). */
typedef struct carc_header {
    const char *key;
    size_t key_len;
    const char *value;
    size_t value_len;
    int line; /* 1-based line of the record */
} carc_header;

/* Reads the header lines of the record `text` of `len` bytes (no NUL
 * needed), in order, into `out` (at most `cap`; may be NULL when `cap` is
 * 0) and returns how many there are, like snprintf. The views point into
 * `text` and live as long as it does. The header lines are checked as
 * carc_record_read() checks them (bytes, a first `players` line, one
 * `players` and one `rules` line, known rule names, keys) and reading stops
 * at the first move line, `discard` or `end`; the moves are not read.
 * Returns -1 and fills `*err` (may be NULL) when the headers break the
 * notation (`out` may then hold the headers before the bad line); no
 * allocation. */
int carc_record_headers(const char *text, size_t len, carc_header *out, int cap,
                        carc_record_error *err);
/* Index of the first header of `headers[0 .. n)` whose key is `key`, or
 * -1. `n` counts the headers written: when carc_record_headers() returned
 * more than its `cap`, pass `cap`. */
int carc_header_find(const carc_header *headers, int n, const char *key);
/* Checks that `key` and `value` (NUL-terminated) make a header line that
 * carc_record_write() may write and carc_record_headers() reads back
 * unchanged: a key [a-z][a-z0-9_.-]+ other than `players`, `rules`,
 * `discard` and `end` (the writer writes the first two from the game); a
 * value (may be "") of valid UTF-8 without control characters (tab
 * included) or `#`, not starting or ending with a space, and a line of at
 * most CARC_RECORD_MAX_LINE bytes. CARC_EINVAL with the reason in `err`
 * (may be NULL; NUL-terminated, at most `errcap` bytes; "" on success). */
carc_status carc_header_check(const char *key, const char *value, char *err, size_t errcap);
/* Appends the line "KEY VALUE\n" (or "KEY\n" for an empty value) to the
 * NUL-terminated header text in `buf` (`cap` bytes), for the `headers` of
 * carc_record_write(). CARC_EINVAL, and `buf` unchanged, when carc_header_check()
 * refuses them, when `buf` holds no NUL within `cap` bytes, or when the
 * line does not fit. */
carc_status carc_header_append(char *buf, size_t cap, const char *key, const char *value);

/* --- Replaying a record move by move ----------------------------------------------------- */

/* One step of carc_record_replay(): a move of the record, or its `end`. */
typedef struct carc_replay_step {
    int index;      /* the move's index (0-based); for `end`, the moves played */
    int end;        /* 1: the record's `end` line, which ended the game early */
    int player;     /* who moved (0-based); -1 for `end` */
    int tile_kind;  /* the tile the move drew; CARC_NO_TILE for `end` */
    carc_move move; /* as played; for `end`, a discard that means nothing */
    /* What the step scored, as carc_game_play() reports it: the final
     * scoring is on the last move (or on `end`). Valid during the call. */
    const carc_event *events;
    int nevents;
    /* The position after the step, valid during the call. Its drawn tile is
     * a guess from `seed` until the next move line names it. */
    const carc_game *game;
} carc_replay_step;

/* Called after each step; a non-zero return stops the replay there. */
typedef int (*carc_replay_fn)(void *ctx, const carc_replay_step *step);

/* carc_record_read() that calls `fn` (may be NULL) with `ctx` after each
 * move and after an `end` line that ends the game, in order, so that a
 * front end gets each move's player and score events without replaying
 * the record itself.
 * Returns the game after the last step (after the step where `fn` stopped
 * it: the rest of the record is then not read), or NULL with `*err` filled
 * when the record is invalid; steps before the invalid line have been
 * reported. Free the game with carc_game_free(). */
carc_game *carc_record_replay(const char *text, size_t len, uint64_t seed, carc_replay_fn fn,
                              void *ctx, carc_record_error *err);

/* Writes the record notation of a move ("E 0 -1 2 S", "discard X"). */
size_t carc_move_format(const carc_game *g, int move_index, char *buf, size_t cap);

/* Writes move `m` of the current player's drawn tile in record notation
 * ("E 0 -1 2 S", "discard X") into `buf` (NUL-terminated, at most `cap`
 * bytes) and returns its length, like snprintf. Writes nothing and returns
 * 0 when the game is over or `m` is no move of that tile's shape. */
size_t carc_move_write(const carc_game *g, carc_move m, char *buf, size_t cap);
/* Reads one move line in record notation (a trailing newline and a comment
 * allowed) for the drawn tile of the current position into `*out`, and
 * checks that it is legal. CARC_ESYNTAX: not a move line; CARC_EILLEGAL:
 * another tile than the drawn one, or a move the rules forbid; CARC_EOVER:
 * the game has ended. `g` is never changed. */
carc_status carc_move_parse(const carc_game *g, const char *text, carc_move *out);
/* carc_move_parse() that also writes why a line was refused into `err`
 * (may be NULL; NUL-terminated, at most `errcap` bytes; "" on success). */
carc_status carc_move_parse_message(const carc_game *g, const char *text, carc_move *out, char *err,
                                    size_t errcap);

/* ---------------------------------------------------------------------------
 * Randomness
 * ------------------------------------------------------------------------- */

/* A small reproducible generator, for front ends and players. */
typedef struct carc_rng {
    uint64_t state;
} carc_rng;

carc_rng carc_rng_seed(uint64_t seed);
uint64_t carc_rng_next(carc_rng *r);
/* Uniform in 0..n-1 (n >= 1). */
uint32_t carc_rng_below(carc_rng *r, uint32_t n);

/* A random legal move for the current player: a uniformly chosen placement
 * (any fitting rotation, so a symmetric tile may come at a rotation that is
 * not canonical: see carc_legal_moves()), and, with probability
 * `follower_chance` in 0..1, a uniformly chosen legal follower spot. A
 * discard when the tile fits nowhere. */
carc_move carc_random_move(const carc_game *g, carc_rng *r, double follower_chance);

/* Plays the move carc_random_move() would choose, without checking it
 * again: the fast step of random playouts. Writes it to `played` (may be
 * NULL). */
carc_status carc_game_play_random(carc_game *g, carc_rng *r, double follower_chance,
                                  carc_move *played);

#ifdef __cplusplus
}
#endif

#endif
