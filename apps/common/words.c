/* words.c: words for the pieces of the game (see words.h). */
#include "words.h"

#include "carcassonne.h"

const char *words_role(int kind)
{
    static const char *const roles[] = {
        [CARC_ROAD] = "thief",
        [CARC_CITY] = "knight",
        [CARC_FIELD] = "farmer",
        [CARC_CLOISTER] = "monk",
    };
    return kind >= 0 && kind < (int)(sizeof roles / sizeof roles[0]) ? roles[kind] : "?";
}
