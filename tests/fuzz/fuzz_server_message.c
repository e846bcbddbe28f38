/* fuzz_server_message.c: libFuzzer harness for the game server's request
 * decoder (apps/server/message.c). Any input must decode or be refused
 * with a protocol error code and a message; a decoded request must keep
 * every limit of docs/server-protocol.md. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "message.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_server_message: %s\n", what);
        abort();
    }
}

static int terminated(const char *s, size_t cap)
{
    return memchr(s, '\0', cap) != NULL;
}

static void check_request(const msg_request *r)
{
    check(r->type < MSG_TYPES, "type in range");
    check(terminated(r->table, sizeof r->table), "table terminated");
    check(terminated(r->name, sizeof r->name), "name terminated");
    check(!r->name[0] || msg_printable(r->name, MSG_NAME_BYTES), "name printable");
    check(terminated(r->move, sizeof r->move), "move terminated");
    check(terminated(r->text, sizeof r->text), "text terminated");
    check(terminated(r->invite, sizeof r->invite), "invite terminated");
    check(r->id.kind != MSG_ID_TEXT || terminated(r->id.text, sizeof r->id.text), "id terminated");
    if (r->type == MSG_CREATE) {
        check(r->nseats >= CARC_MIN_PLAYERS && r->nseats <= CARC_MAX_PLAYERS, "seat count");
        for (int i = 0; i < r->nseats; i++)
            check(r->seats[i].kind != SEAT_COMPUTER || r->seats[i].spec[0], "computer spec");
    }
    if (r->type == MSG_MOVE)
        check(r->turn >= 0 && r->turn <= MSG_MAX_TURN && r->move[0], "move fields");
    if (r->type == MSG_CHAT)
        check(msg_printable(r->text, MSG_CHAT_BYTES), "chat text");
    if (r->type == MSG_REVIEW)
        check(r->ms >= 10 && r->ms <= 1000, "review ms");
    if (r->type == MSG_JOIN)
        check(r->seat >= -1 && r->seat < CARC_MAX_PLAYERS, "join seat");
    check(r->nmine >= 0 && r->nmine <= MSG_MAX_MINE, "mine count");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static msg_request r;
    msg_problem problem;
    msg_error e = msg_decode((const char *)data, size, &r, &problem);
    if (e == ERR_NONE) {
        check(problem.code == ERR_NONE, "no problem on success");
        check_request(&r);
    } else {
        check(e > ERR_NONE && e < ERR_CODES, "error code in range");
        check(problem.code == e, "problem code");
        check(problem.message[0] != '\0', "a message");
        check(strlen(msg_error_name(e)) > 0, "error name");
    }
    return 0;
}
