import type { Page } from '@playwright/test';
import axe from 'axe-core';

/** The rules the suites hold every screen to: WCAG 2.0 and 2.1, A and AA, and axe's best practices. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

interface AxeOptions {
  /** A selector: only what it matches is checked (the whole document by default). */
  include?: string;
  /** Only the rules with these tags; every rule when left out. */
  tags?: readonly string[];
}

/**
 * axe-core's violations on the open page, one line per failing node: the rule, its impact, where,
 * and axe's advice. axe is put into the page once per document and run there directly. The
 * app has no frames, so nothing needs @axe-core/playwright's per-frame runs and the blank page it
 * opens to merge them, which cost about 1.5 s a check here (a check in place: under 0.2 s).
 */
export async function axeViolations(page: Page, options: AxeOptions = {}): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const violations = await page.evaluate(
    ({ include, tags }) => {
      const engine = (window as unknown as { axe: typeof axe }).axe;
      return engine
        .run(include ?? document, {
          resultTypes: ['violations'],
          ...(tags ? { runOnly: { type: 'tag' as const, values: [...tags] } } : {}),
        })
        .then((results) => results.violations);
    },
    { include: options.include, tags: options.tags },
  );
  return violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id} (${v.impact}) ${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ') ?? v.help}`),
  );
}
