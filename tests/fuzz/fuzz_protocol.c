/* fuzz_protocol.c: libFuzzer harness for the engine protocol. The input is
 * a session: its lines go one by one to an engine session (the random
 * player answers 'go' and 'analyse', so every request is quick). Every
 * line must get exactly one reply, a JSON object with a "type"; after an
 * error reply the game must be as it was; a 'legal' reply counts its
 * moves right. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_protocol: %s\n", what);
        abort();
    }
}

static char *state_of(engine_session *e)
{
    int quit = 0;
    static const char request[] = "{\"type\":\"state\"}";
    json_t *reply = engine_session_answer(e, request, sizeof request - 1, &quit);
    check(reply != NULL, "no reply to 'state'");
    char *text = json_dumps(reply, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(reply);
    return text;
}

/* A 'legal' reply counts its moves right, and lists the discard only
 * when no placement is legal. */
static void check_legal(const json_t *reply)
{
    const json_t *places = json_object_get(reply, "placements");
    check(json_is_array(places), "'legal' without placements");
    json_int_t count = 0;
    size_t i;
    const json_t *p;
    /* Each placement: itself, a follower on each spot, and the large
     * follower, the builder and the pig on each of theirs (expansions). */
    json_array_foreach(places, i, p) count +=
        1 + (json_int_t)json_object_size(json_object_get(p, "spots")) +
        (json_int_t)json_array_size(json_object_get(p, "large")) +
        (json_int_t)json_array_size(json_object_get(p, "builder")) +
        (json_int_t)json_array_size(json_object_get(p, "pig"));
    int discard = json_is_string(json_object_get(reply, "discard"));
    check(discard == (json_array_size(places) == 0), "a discard beside placements");
    check(json_integer_value(json_object_get(reply, "count")) == (discard ? 1 : count),
          "'legal' miscounts its moves");
    /* Protocol 4: every move once more, each with its points. */
    const json_t *moves = json_object_get(reply, "moves");
    check(json_is_array(moves) && (json_int_t)json_array_size(moves) == (discard ? 1 : count),
          "'legal' lists its moves with points a different number of times");
    for (i = 0; i < json_array_size(moves); i++)
        check(json_is_array(json_object_get(json_array_get(moves, i), "points")),
              "a move of 'legal' without points");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 16384)
        return 0;
    char err[160];
    engine_session *e = engine_session_new("random", 1, err, sizeof err);
    check(e != NULL, "no session");
    const char *text = (const char *)data;
    size_t start = 0;
    int quit = 0;
    while (start < size && !quit) {
        const char *nl = memchr(text + start, '\n', size - start);
        size_t len = nl ? (size_t)(nl - (text + start)) : size - start;
        char *before = state_of(e);
        json_t *reply = engine_session_answer(e, text + start, len, &quit);
        check(json_is_object(reply), "a reply that is no JSON object");
        const char *type = json_string_value(json_object_get(reply, "type"));
        check(type != NULL, "a reply without a type");
        if (strcmp(type, "legal") == 0)
            check_legal(reply);
        if (strcmp(type, "error") == 0) {
            check(json_is_string(json_object_get(reply, "message")), "an error without a message");
            char *after = state_of(e);
            check(before && after && strcmp(before, after) == 0, "an error changed the game");
            free(after);
        }
        free(before);
        json_decref(reply);
        start += len + 1;
    }
    engine_session_free(e);
    return 0;
}
