/* tile_info.c: draw chances and dead spots from the tile counts and the
 * edges of the catalogue. */
#include "tile_info.h"

static const int dx[4] = {0, 1, 0, -1};
static const int dy[4] = {-1, 0, 1, 0};

int tile_info_counts(const carc_game *g, int counts[CARC_MAX_KINDS], int with_drawn)
{
    int left = carc_game_tiles_left(g, counts);
    int drawn = carc_game_drawn_tile(g);
    if (with_drawn && carc_game_rules(g).hand > 0) { /* every hand: the drawn tile is one's */
        for (int p = 0; p < carc_game_players(g); p++) {
            int kinds[CARC_MAX_HAND];
            int n = carc_game_hand(g, p, kinds, CARC_MAX_HAND);
            for (int i = 0; i < n && i < CARC_MAX_HAND; i++)
                if (kinds[i] >= 0 && kinds[i] < CARC_MAX_KINDS)
                    counts[kinds[i]]++;
        }
    } else if (with_drawn && drawn >= 0 && drawn < CARC_MAX_KINDS) {
        counts[drawn]++;
    }
    return left;
}

int tile_info_pile_kinds(const carc_game *g, int kinds[CARC_MAX_KINDS])
{
    int next[CARC_MAX_KINDS] = {0}, river = 0, n = 0;
    carc_game_next_tiles(g, next);
    for (int k = 0; k < carc_tile_kinds() && k < CARC_MAX_KINDS; k++)
        river |= next[k] > 0 && carc_tile(k)->set == CARC_EXPANSION_RIVER;
    for (int k = 0; k < carc_tile_kinds() && n < CARC_MAX_KINDS; k++) {
        int river_tile = carc_tile(k)->set == CARC_EXPANSION_RIVER;
        if (carc_game_kind_total(g, k) > 0 && river_tile == river)
            kinds[n++] = k;
    }
    return n;
}

double tile_info_chance(int count, int left)
{
    if (left <= 0 || count <= 0)
        return 0.0;
    return (double)count / (double)left;
}

int tile_info_needs(const carc_game *g, int x, int y, int needs[4])
{
    int neighbours = 0;
    for (int e = 0; e < 4; e++) {
        needs[e] = TILE_INFO_NO_NEIGHBOUR;
        int nx = x + dx[e], ny = y + dy[e];
        if (nx < INT8_MIN || nx > INT8_MAX || ny < INT8_MIN || ny > INT8_MAX)
            continue;
        int index = carc_game_tile_at(g, nx, ny);
        carc_tile_on_board t;
        if (index < 0 || carc_game_tile_info(g, index, &t) != CARC_OK)
            continue;
        needs[e] = carc_tile_edge(t.kind, t.rot, (e + 2) % 4);
        neighbours++;
    }
    return neighbours;
}

int tile_info_kind_fits(int kind, const int needs[4])
{
    for (int rot = 0; rot < 4; rot++) {
        int fits = 1;
        for (int e = 0; e < 4 && fits; e++)
            if (needs[e] != TILE_INFO_NO_NEIGHBOUR && carc_tile_edge(kind, rot, e) != needs[e])
                fits = 0;
        if (fits)
            return 1;
    }
    return 0;
}

static int square_dead(const int counts[CARC_MAX_KINDS], const int needs[4])
{
    for (int k = 0; k < carc_tile_kinds(); k++)
        if (counts[k] > 0 && tile_info_kind_fits(k, needs))
            return 0;
    return 1;
}

static int listed(const tile_square *list, int n, int cap, int x, int y)
{
    for (int i = 0; i < n && i < cap; i++)
        if (list[i].x == x && list[i].y == y)
            return 1;
    return 0;
}

int tile_info_dead_spots_for(const carc_game *g, const int counts[CARC_MAX_KINDS], tile_square *out,
                             int cap)
{
    /* Squares already looked at, dead or not, so each is judged once. */
    tile_square seen[TILE_INFO_MAX_SQUARES];
    int nseen = 0, ndead = 0;
    int tiles = carc_game_tile_count(g);
    for (int i = 0; i < tiles; i++) {
        carc_tile_on_board t;
        if (carc_game_tile_info(g, i, &t) != CARC_OK)
            continue;
        for (int e = 0; e < 4; e++) {
            int x = t.x + dx[e], y = t.y + dy[e];
            if (x < INT8_MIN || x > INT8_MAX || y < INT8_MIN || y > INT8_MAX ||
                carc_game_tile_at(g, x, y) >= 0 ||
                listed(seen, nseen, TILE_INFO_MAX_SQUARES, x, y) || nseen >= TILE_INFO_MAX_SQUARES)
                continue;
            seen[nseen++] = (tile_square){x, y};
            int needs[4];
            tile_info_needs(g, x, y, needs);
            if (!square_dead(counts, needs))
                continue;
            if (ndead < cap)
                out[ndead] = (tile_square){x, y};
            ndead++;
        }
    }
    return ndead;
}

int tile_info_dead_spots(const carc_game *g, tile_square *out, int cap)
{
    int counts[CARC_MAX_KINDS] = {0};
    tile_info_counts(g, counts, 1);
    return tile_info_dead_spots_for(g, counts, out, cap);
}

tile_pile_mark tile_info_pile_mark(const carc_game *g)
{
    return (tile_pile_mark){carc_game_tiles_left(g, NULL), carc_game_draw_count(g)};
}

int tile_info_went_back(const carc_game *g, tile_pile_mark before)
{
    tile_pile_mark now = tile_info_pile_mark(g);
    carc_rules rules = carc_game_rules(g);
    /* The tiles drawn after the move: with a hand, the draw log's new
     * entries; without, the next turn's tile when the game goes on. */
    int drawn = rules.hand > 0 ? now.draws - before.draws : carc_game_drawn_tile(g) >= 0;
    return (rules.flags & CARC_RULE_RESHUFFLE) && now.left - before.left + drawn > 0;
}
