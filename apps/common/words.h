/* words.h: words the text front ends (the command line, the terminal
 * game) share for the pieces of the game. Feature kinds are named by the
 * library (carc_kind_name()). */
#ifndef CARC_COMMON_WORDS_H
#define CARC_COMMON_WORDS_H

/* The follower on a feature of a carc_kind: "thief", "knight", "farmer",
 * "monk"; "?" for anything else. */
const char *words_role(int kind);

#endif
