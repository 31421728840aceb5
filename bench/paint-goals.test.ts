// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { paintGoalRows } from './paint-goals.ts';

const bare = { fcp: 756, lcp: 762, performance: 100 };

describe("the paint goals against the bare page's", () => {
  it('are met at the limits: FCP 50 ms and LCP 100 ms after the bare page, the same performance', () => {
    const rows = paintGoalRows('/home', { fcp: 806, lcp: 862, performance: 100 }, bare);
    expect(rows.map((r) => [r.figure, r.value, r.goal, r.met])).toEqual([
      ["/home FCP − the bare page's (paint goal)", '+50 ms', '≤ 50 ms', true],
      ["/home LCP − the bare page's (paint goal)", '+100 ms', '≤ 100 ms', true],
      ["/home performance against the bare page's (paint goal)", '100', '≥ 100', true],
    ]);
    expect(rows.some((r) => r.budget)).toBe(false);
  });

  it('each is missed on its own past its limit', () => {
    expect(paintGoalRows('/', { fcp: 807, lcp: 862, performance: 100 }, bare).map((r) => r.met)).toEqual([false, true, true]);
    expect(paintGoalRows('/', { fcp: 806, lcp: 863, performance: 100 }, bare).map((r) => r.met)).toEqual([true, false, true]);
    expect(paintGoalRows('/', { fcp: 806, lcp: 862, performance: 99 }, bare).map((r) => r.met)).toEqual([true, true, false]);
  });

  it('prints a route faster than the floor with its sign, the two figures beside it', () => {
    const [fcp] = paintGoalRows('/', { fcp: 740.4, lcp: 700, performance: 100 }, bare);
    expect(fcp).toMatchObject({ value: '−16 ms', met: true, peer: '740 ms against 756 ms' });
  });
});
