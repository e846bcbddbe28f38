/* eval_layout.c: the full evaluation's entry points (ai.h), each passing
 * the call to the build of the game's layout: eval_full.c is compiled once
 * per layout (layout.h), this file once. */
#include "ai.h"
#include "layout_of.h"

void ai_evaluate_full_base(const carc_game *g, double out[CARC_MAX_PLAYERS]);
void ai_evaluate_full_wide(const carc_game *g, double out[CARC_MAX_PLAYERS]);
void ai_evaluate_full_terms_base(const carc_game *g, double out[CARC_MAX_PLAYERS],
                                 double terms[CARC_MAX_PLAYERS][AI_TERMS]);
void ai_evaluate_full_terms_wide(const carc_game *g, double out[CARC_MAX_PLAYERS],
                                 double terms[CARC_MAX_PLAYERS][AI_TERMS]);

void ai_evaluate_full(const carc_game *g, double out[CARC_MAX_PLAYERS])
{
    if (layout_is_wide(g))
        ai_evaluate_full_wide(g, out);
    else
        ai_evaluate_full_base(g, out);
}

void ai_evaluate_full_terms(const carc_game *g, double out[CARC_MAX_PLAYERS],
                            double terms[CARC_MAX_PLAYERS][AI_TERMS])
{
    if (layout_is_wide(g))
        ai_evaluate_full_terms_wide(g, out, terms);
    else
        ai_evaluate_full_terms_base(g, out, terms);
}
