/* fuzz_net.c: libFuzzer harness for the .carcnet reader (src/ai/net.c).
 * The input is the file. A refusal must say why; an accepted network must
 * run (the value head on a position's inputs, the policy head on two
 * moves' rows) and must be refused once its last byte is cut off, since a
 * file's size follows from its header. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carcassonne_ai.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_net: %s\n", what);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[240] = "";
    carc_net *net = carc_net_read(data, size, err, sizeof err);
    if (!net) {
        check(err[0] != '\0', "a refusal without a message");
        return 0;
    }
    check(err[0] == '\0', "a message on success");
    float position[CARC_NET_POSITION_INPUTS], moves[2 * CARC_NET_MOVE_INPUTS], logits[2];
    for (int i = 0; i < CARC_NET_POSITION_INPUTS; i++)
        position[i] = (float)(i % 3) * 0.5f;
    for (int i = 0; i < 2 * CARC_NET_MOVE_INPUTS; i++)
        moves[i] = (float)(i % 2);
    volatile double value = carc_net_value(net, position); /* may overflow: not checked */
    carc_net_policy(net, moves, 2, logits);
    (void)value;
    carc_net_free(net);
    check(carc_net_read(data, size - 1, err, sizeof err) == NULL, "a truncated network was read");
    return 0;
}
