/* arena_stats.h: the statistics of an arena match between players A and B:
 * results, score rate with its confidence interval, margin, Elo. */
#ifndef CARC_ARENA_STATS_H
#define CARC_ARENA_STATS_H

/* Who lost a game by misbehaving (an outside engine's illegal move, bad
 * reply, crash or timeout), whatever the scores said. */
typedef enum arena_forfeit {
    ARENA_NO_FORFEIT = 0,
    ARENA_A_FORFEITS = 1,
    ARENA_B_FORFEITS = 2,
} arena_forfeit;

/* One game seen from A: final scores (at the forfeit for a forfeited game),
 * the time each side spent choosing and how many moves it made. Games 2i
 * and 2i + 1 were dealt from the same deck (a pair). */
typedef struct arena_game {
    int a_score, b_score;
    arena_forfeit forfeit;
    double a_seconds, b_seconds;
    int a_moves, b_moves;
} arena_game;

typedef struct arena_stats {
    int games, pairs; /* a pair with one game (an odd last game) counts */
    int a_wins, b_wins, draws;
    double score_rate;             /* A's points per game, a draw half */
    double rate_low, rate_high;    /* its 95% interval, see arena_stats_compute */
    int rate_wilson;               /* 1: Wilson's interval, 0: the normal one */
    double mean_margin;            /* A's score minus B's, per game */
    double margin_se;              /* its standard error (0 with one pair) */
    double elo, elo_low, elo_high; /* the rate and interval as Elo */
    int elo_clamped;               /* 1 when a rate was clamped */
    double a_mean_score, b_mean_score;
    double a_seconds_per_move, b_seconds_per_move; /* 0 without moves */
} arena_stats;

/* Elo difference of a score rate: -400 log10(1/s - 1), with s clamped to
 * 0.001..0.999 (about +-1200); *clamped is set when it was. */
double arena_elo(double score_rate, int *clamped);

/* The statistics of `n` games (n >= 1). The deck pairs are the independent
 * units: the 95% interval of the score rate is the normal approximation on
 * the pair means (s +- 1.96 sd / sqrt(pairs), sample sd), clamped to 0..1;
 * when there is one pair, or every pair ended alike (sd 0), it is the
 * Wilson score interval over the pairs instead, which is never narrower
 * than the normal one would be for results bounded by 0 and 1. The
 * margin's standard error is taken on the pairs as well. */
void arena_stats_compute(const arena_game *games, int n, arena_stats *out);

#endif
