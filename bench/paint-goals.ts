import type { Figure } from './figure.ts';

/** What the paint goals read of a page's Lighthouse run (mobile, simulated, the median run). */
export interface PaintFigures {
  fcp: number;
  lcp: number;
  performance: number;
}

/** A hydrated route's first paint may come at most this long after the bare page's (bench/floor.ts). */
const FCP_OVER_FLOOR_GOAL_MS = 50;
/** And its largest paint at most this long after the bare page's. */
const LCP_OVER_FLOOR_GOAL_MS = 100;

const signed = (ms: number) => `${ms >= 0 ? '+' : '−'}${Math.abs(Math.round(ms))} ms`;

/**
 * The three paint goals of a hydrated route against the bare page measured in the same run: its
 * FCP within 50 ms of the bare page's, its LCP within 100 ms, its performance score at least the
 * bare page's. Goals, marked met or not: the machine moves them, so they fail nothing.
 */
export function paintGoalRows(path: string, route: PaintFigures, bare: PaintFigures): Figure[] {
  const fcpGap = route.fcp - bare.fcp;
  const lcpGap = route.lcp - bare.lcp;
  return [
    {
      figure: `${path} FCP − the bare page's (paint goal)`,
      value: signed(fcpGap),
      goal: `≤ ${FCP_OVER_FLOOR_GOAL_MS} ms`,
      met: fcpGap <= FCP_OVER_FLOOR_GOAL_MS,
      peer: `${Math.round(route.fcp)} ms against ${Math.round(bare.fcp)} ms`,
    },
    {
      figure: `${path} LCP − the bare page's (paint goal)`,
      value: signed(lcpGap),
      goal: `≤ ${LCP_OVER_FLOOR_GOAL_MS} ms`,
      met: lcpGap <= LCP_OVER_FLOOR_GOAL_MS,
      peer: `${Math.round(route.lcp)} ms against ${Math.round(bare.lcp)} ms`,
    },
    {
      figure: `${path} performance against the bare page's (paint goal)`,
      value: String(route.performance),
      goal: `≥ ${bare.performance}`,
      met: route.performance >= bare.performance,
      peer: `bare page ${bare.performance}`,
    },
  ];
}
