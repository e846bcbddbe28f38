/* eval.h: the static evaluations inside the library: the basic one
 * (eval.c, carc_evaluate) and the full one (eval_full.c), and the terms
 * they share. */
#ifndef CARC_AI_EVAL_H
#define CARC_AI_EVAL_H

#include "carcassonne.h"

/* The full static evaluation (eval_full.c): carc_evaluate's contract (the
 * expected final score of every player; the exact scores once the game is
 * over), with each open square judged by the tiles still to come. */
void ai_evaluate_full(const carc_game *g, double out[CARC_MAX_PLAYERS]);
/* The full evaluation of the positions one move away from one position,
 * as a search orders the placements of a tile or greedy values its moves:
 * after ai_evaluate_full_children(parent), ai_evaluate_full_child(g, out)
 * gives what ai_evaluate_full(g, out) would, to the last bit, for a `g`
 * that is the parent after one move (a tile placed, with or without a
 * figure on it, and what follows in the turn: a completed feature scored,
 * the next tile drawn; a discard is valued afresh). It keeps, on this
 * thread, the walks of the features each move leaves untouched for the
 * next ones, till the next ai_evaluate_full_children. */
void ai_evaluate_full_children(const carc_game *g);
void ai_evaluate_full_child(const carc_game *g, double out[CARC_MAX_PLAYERS]);
/* The terms of the full evaluation, for fitting its weights (tools/
 * fit_eval.c): each player's value is the sum over the terms of
 * ai_terms[k].weight * terms[k]. The worth of the occupied features its
 * player owns, by kind, comes twice: in full (AI_TERM_CITY ..) and
 * scaled by the share of the 71 tiles still to come (AI_TERM_CITY_EARLY
 * ..: the early doubt, in the same order). */
enum {
    AI_TERM_SCORE,  /* points scored */
    AI_TERM_SUPPLY, /* followers in supply */
    AI_TERM_CITY,
    AI_TERM_ROAD,
    AI_TERM_CLOISTER,
    AI_TERM_FARM,
    AI_TERM_CITY_EARLY,
    AI_TERM_ROAD_EARLY,
    AI_TERM_CLOISTER_EARLY,
    AI_TERM_FARM_EARLY,
    AI_TERM_RETURN, /* followers coming home */
    AI_TERM_ROOM,   /* farms' room to grow */
    AI_TERM_JOINS,  /* cities and farms one tile may join */
    AI_TERMS,
};
/* Each term's weight in the evaluation, and a short name for reports
 * ("cities x to come"). */
typedef struct ai_term {
    double weight;
    const char *name;
} ai_term;
extern const ai_term ai_terms[AI_TERMS];
/* The full evaluation's doubt about an occupied feature early in the game
 * (eval_full.c explains it). */
#define AI_EARLY_DOUBT 0.45
/* ai_evaluate_full into `out`, and its terms into `terms`. */
void ai_evaluate_full_terms(const carc_game *g, double out[CARC_MAX_PLAYERS],
                            double terms[CARC_MAX_PLAYERS][AI_TERMS]);
/* ai_evaluate_full_terms of a child, as ai_evaluate_full_child gives
 * ai_evaluate_full's values (the same numbers, sooner). */
void ai_evaluate_full_child_terms(const carc_game *g, double out[CARC_MAX_PLAYERS],
                                  double terms[CARC_MAX_PLAYERS][AI_TERMS]);
/* Both evaluations value the followers in supply alike (eval.c): one
 * follower with `left` tiles to come, and `supply` of them (the first
 * three in full, the others half). */
double ai_follower_unit(int left);
double ai_follower_worth(int left, int supply);
/* Bytes of one state of a game like `g`: its layout's (seven or eight
 * players take the wide layout whatever the rules, which carc_game_size
 * cannot tell from the rules alone). */
size_t ai_state_bytes(const carc_game *g);
/* Plays `m`, a move of the legal lists of `g` itself (a search's child,
 * or a tree's option where every deal leads to the same position), as
 * carc_game_play() would, without its check and events; an illegal move
 * corrupts the state. */
void ai_play_known(carc_game *g, carc_move m);

/* An evaluation: carc_evaluate or ai_evaluate_full. */
typedef void (*ai_evaluation)(const carc_game *g, double out[CARC_MAX_PLAYERS]);

#endif
