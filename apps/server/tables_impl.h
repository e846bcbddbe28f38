/* tables_impl.h: what the parts of the tables module share, and only
 * they: the registry (tables.c), replies and events (tables_send.c), the
 * members of a table (tables_members.c), what is asked of the workers
 * (tables_computer.c), the turns (tables_turns.c), the
 * seats (tables_seats.c) and the requests (tables_requests.c). The rest
 * of the server goes through tables.h. Every name here begins with tb_. */
#ifndef CARC_SERVER_TABLES_IMPL_H
#define CARC_SERVER_TABLES_IMPL_H

#include <jansson.h>
#include <stdint.h>

#include "counts.h"
#include "replays.h"
#include "table.h"
#include "tables.h"
#include "token.h"

enum {
    HASH_BUCKETS = 1 << 14,
    LOBBY_MAX = 100,
    TABLE_ID_LEN = 11, /* 't' and 10 letters and digits */
    /* Several servers on one PostgreSQL: every second, a server takes
     * over (a batch of) the tables whose server died; after a full batch,
     * the next batch at the next tick. */
    ORPHANS_MS = 1000,
    ORPHANS_PER_SWEEP = 256,
};

struct srv_tables {
    storage *store;
    srv_hooks hooks;
    srv_limits limits;
    srv_table *buckets[HASH_BUCKETS];
    srv_table *newest; /* every table in memory, newest first */
    int live;          /* waiting and playing */
    addr_counts live_per_addr;
    addr_counts computers_per_addr; /* the live tables of computer seats only */
    /* A spare game the next move is played on, so that a refused move
     * leaves the table's game as it was; it trades places with the
     * table's game after each move, so it may have any tile set. */
    carc_game *scratch;
    carc_game *view; /* a seat's view for the workers (mover_view), or NULL */
    outbox out;
    srv_replays *replays; /* `replay` answers kept, and those being computed */
    srv_stats stats;
    int64_t orphans_ms; /* the last look for tables whose server died */
    int orphans_more;   /* that look found a full batch */
};

/* tables.c */
srv_table *tb_find_loaded(const srv_tables *T, const char *id);
srv_table *tb_find_table(srv_tables *T, const char *id);
srv_table *tb_stored_copy(srv_tables *T, const char *id);
srv_table *tb_table_from_row(const stored_table *row, char *err, size_t errcap);
void tb_finish_table(srv_tables *T, srv_table *t);
void tb_free_table(srv_table *t);
void tb_insert_table(srv_tables *T, srv_table *t);
int tb_adopt_orphans(srv_tables *T, int64_t now);
int tb_let_go(srv_tables *T, srv_table *t, int64_t now);
void tb_start_clocks(srv_table *t, int64_t now);
void tb_stop_clock(srv_table *t, int seat, int64_t now);
/* A new random table id, no table's in memory. */
void tb_new_table_id(const srv_tables *T, char out[TABLE_ID_LEN + 1]);
/* A new table from `row` (its game not begun): claimed by this process,
 * stored, in the registry; NULL (said on stderr) when it cannot be. */
srv_table *tb_open_table(srv_tables *T, const stored_table *row);
/* Replays `t`'s game again from its row (after a takeback) into a new
 * game, its clocks from the stored times, the turn to play starting now.
 * -1 (with `err`) when a stored move does not replay: nothing changed. */
int tb_replay_game(srv_tables *T, srv_table *t, char *err, size_t errcap);

/* tables_send.c */
int64_t tb_now_ms(const srv_tables *T);
json_t *tb_id_json(const msg_id *id);
msg_error tb_refuse(srv_tables *T, srv_client *c, const msg_request *r, msg_error code,
                    const char *message);
void tb_broadcast(srv_tables *T, const srv_table *t, json_t *json, const srv_client *except);
void tb_reply(srv_tables *T, srv_client *c, const msg_request *r, json_t *fields);
void tb_send_to(srv_tables *T, srv_client *c, json_t *json);
void tb_send_to_seat(srv_tables *T, const srv_table *t, int seat, json_t *json);

/* tables_members.c */
int tb_member_add(srv_table *t, srv_client *c);
int tb_member_index(const srv_table *t, const srv_client *c);
int tb_seat_of(const srv_table *t, const srv_client *c);
void tb_member_bind(srv_tables *T, srv_table *t, srv_client *c, int seat);
void tb_member_remove(srv_tables *T, srv_table *t, srv_client *c);
int tb_seat_filled(const stored_seat *s);

/* tables_computer.c */
int tb_think(srv_tables *T, srv_table *t, const char *spec);
void tb_maybe_think(srv_tables *T, srv_table *t);
/* tables_turns.c: the turn to play became a seat's: when an account holds
 * it, its webhook is asked for (srv_hooks.turn). */
void tb_notify_turn(srv_tables *T, const srv_table *t);
void tb_maybe_analyse(srv_tables *T, srv_table *t);
void tb_send_estimates(srv_tables *T, const srv_table *t);

/* tables_turns.c */
msg_error tb_forfeit_table(srv_tables *T, srv_table *t, int forfeit, move_by by, srv_client *mover,
                           const msg_request *r);
void tb_do_estimate(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t);
void tb_do_hint(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t);
void tb_do_legal(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t);
void tb_do_move(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t);
void tb_do_review(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t);
void tb_do_takeback(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t);
/* tables_ratings.c: rated games */
const char *tb_rated_refusal(const srv_client *c, const msg_request *r);
void tb_rate_game(srv_tables *T, srv_table *t);
/* Reads the ratings shown beside the seats of `t` (t->rating). */
void tb_seat_ratings(srv_tables *T, srv_table *t);
/* tables_rematch.c: a new game with the same people at the end */
void tb_do_rematch(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t);
void tb_do_resign(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t);

/* tables_seats.c */
int tb_seat_of_token(const srv_table *t, const uint8_t token[TOKEN_SECRET_BYTES]);
/* A seat's secret for the table salted `salt`: derived from a request key
 * `key` and `label` (a repeated request makes it again), or random when
 * `key` is ""; its hash into `hash`, its hex into `hex`. 0, or -1. */
int tb_make_secret(const uint8_t salt[TOKEN_SECRET_BYTES], const char *key, const char *label,
                   uint8_t hash[TOKEN_HASH_BYTES], char hex[TOKEN_HEX]);
void tb_do_create(srv_tables *T, srv_client *c, const msg_request *r);
void tb_do_join(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t);
void tb_do_reopen(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t);
void tb_do_resume(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t);
void tb_do_watch(srv_tables *T, srv_client *c, const msg_request *r, srv_table *t);

#endif
