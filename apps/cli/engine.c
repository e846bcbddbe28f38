/* engine.c: `carcassonne engine`: a library player behind the engine
 * protocol (docs/protocol.md), one JSON request per line on standard input,
 * one JSON reply per line on standard output. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "cli.h"
#include "engine_session.h"
#include "protocol.h"

static const char engine_usage[] =
    "usage: carcassonne engine [--player SPEC] [--seed S]\n"
    "\n"
    "Speaks the engine protocol (docs/protocol.md) on standard input and\n"
    "output: one JSON object per line each way, every request answered by\n"
    "exactly one line. Requests: hello, new, tile, draw, move, go, legal,\n"
    "try, undo, analyse, state, end, quit (protocol 4). 'new' takes the rules\n"
    "and the expansions, e.g.\n"
    "{\"type\":\"new\",\"players\":2,\"expansions\":[\"river\"]};\n"
    "tile ids have one or two letters (E, RD, IK); a move may name a figure\n"
    "after its spot (\"IK 0 1 0 NNW large\"). A bad request is answered\n"
    "{\"type\":\"error\",...} and changes nothing. 'new' again starts another\n"
    "game. Ends at 'quit' or at the end of the input.\n"
    "\n"
    "  --player SPEC   the library player that answers 'go' and 'analyse'\n"
    "                  (default mcts; greedy, random, mcts:ms=500, ...)\n"
    "  --seed S        seeds the player and the pile that 'draw' deals from,\n"
    "                  when 'new' gives no seed (default 1)\n";

static int serve(engine_session *e)
{
    static proto_reader in;
    static char line[PROTO_MAX_LINE + 2];
    proto_reader_init(&in, 0);
    for (int quit = 0; !quit;) {
        size_t len = 0;
        int got = proto_read_line(&in, -1, line, &len);
        if (got == PROTO_EOF)
            break;
        json_t *reply;
        if (got == PROTO_TOO_LONG)
            reply = proto_error("the line is longer than %d bytes", PROTO_MAX_LINE);
        else if (got != PROTO_LINE)
            return EXIT_INVALID;
        else if (len == strspn(line, " \t"))
            continue; /* blank lines are no requests */
        else
            reply = engine_session_answer(e, line, len, &quit);
        int sent = proto_send(1, reply);
        if (sent == PROTO_SEND_TOO_LONG)
            sent = proto_send(
                1, proto_error("the reply would be longer than %d bytes", PROTO_MAX_LINE));
        if (sent < 0)
            return EXIT_INVALID;
    }
    return EXIT_OK;
}

int cmd_engine(int argc, char **argv)
{
    const char *spec = "mcts";
    uint64_t seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(engine_usage, stdout);
            return EXIT_OK;
        }
        if (strcmp(a, "--player") != 0 && strcmp(a, "--seed") != 0)
            return cli_usage_error("engine", "unknown argument '%s'", a);
        if (i + 1 >= argc)
            return cli_usage_error("engine", "%s needs a value", a);
        const char *v = argv[++i];
        if (strcmp(a, "--player") == 0)
            spec = v;
        else if (cli_parse_u64(v, &seed) < 0)
            return cli_usage_error("engine", "--seed takes a number, not '%s'", v);
    }
    char err[160];
    engine_session *e = engine_session_new(spec, seed, err, sizeof err);
    if (!e)
        return cli_usage_error("engine", "--player: %s", err);
    int status = serve(e);
    engine_session_free(e);
    return status;
}
