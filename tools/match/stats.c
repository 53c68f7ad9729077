// SPDX-License-Identifier: MIT
// Owns the match statistics: Elo difference, its error bar, LOS and the SPRT log-likelihood.
#include <math.h>

#include "match.h"

static const double Z95 = 1.959963984540054; // two-sided 95% quantile of the normal law

double stats_elo(double s)
{
    if (s <= 0.0)
        return -INFINITY;
    if (s >= 1.0)
        return INFINITY;
    return -400.0 * log10(1.0 / s - 1.0);
}

// Mean score and per-game variance of the score of a result.
static void mean_var(const MatchScore *m, double *mean, double *var)
{
    double n = m->wins + m->losses + m->draws;
    double s = (m->wins + 0.5 * m->draws) / n;
    *mean = s;
    *var = (m->wins * (1 - s) * (1 - s) + m->losses * s * s + m->draws * (0.5 - s) * (0.5 - s)) / n;
}

void stats_elo_error(const MatchScore *m, double *elo, double *error)
{
    int n = m->wins + m->losses + m->draws;
    if (n == 0) {
        *elo = 0;
        *error = INFINITY;
        return;
    }
    double s, var;
    mean_var(m, &s, &var);
    double dev = sqrt(var / n);
    *elo = stats_elo(s);
    // One kind of result only (all wins, all losses or all draws) leaves no spread to measure:
    // the bar is unbounded (with all wins it would be infinity minus infinity, printed nan).
    *error = dev == 0.0 ? INFINITY : (stats_elo(s + Z95 * dev) - stats_elo(s - Z95 * dev)) / 2.0;
}

double stats_los(const MatchScore *m)
{
    int decisive = m->wins + m->losses;
    if (decisive == 0)
        return 50.0;
    return 50.0 + 50.0 * erf((m->wins - m->losses) / sqrt(2.0 * decisive));
}

double stats_sprt_llr(const MatchScore *m, double elo0, double elo1)
{
    int n = m->wins + m->losses + m->draws;
    if (n == 0)
        return 0.0;
    double s, var;
    mean_var(m, &s, &var);
    if (var <= 0.0)
        return 0.0;
    double s0 = 1.0 / (1.0 + pow(10.0, -elo0 / 400.0));
    double s1 = 1.0 / (1.0 + pow(10.0, -elo1 / 400.0));
    return n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var);
}

void stats_sprt_bounds(double alpha, double beta, double *lower, double *upper)
{
    *lower = log(beta / (1.0 - alpha));
    *upper = log((1.0 - beta) / alpha);
}
