/**
 * bench's report: a run's results (./results.ts) as rows of figures, each beside its goal and,
 * where one was measured, a peer's; printed as a table and written as a small HTML page.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import { REACT_CHUNK, type BundleFigures } from '../testkit/index.ts';
import type { Figure } from './figure.ts';
import type { FloorPage } from './floor.ts';
import type { LongTask } from './long-tasks.ts';
import { paintGoalRows } from './paint-goals.ts';
import type { FirstLoad, Floor, Results, RouteLighthouse, RouteLongTasks, ThroughputResult } from './results.ts';
import { VERIFY_CONCURRENCY, VERIFY_GOALS, type VerifyTiming } from './verify-timings.ts';

export function printFigures(figures: readonly Figure[]): void {
  const mark = (f: Figure) => (f.met === undefined ? ' ' : f.met ? '✓' : '✗');
  const cols = [
    ['figure', ...figures.map((f) => f.figure)],
    ['value', ...figures.map((f) => f.value)],
    ['goal', ...figures.map((f) => (f.goal ? `${mark(f)} ${f.goal}${f.budget ? ' (budget)' : ''}` : ''))],
    ['peer (same run)', ...figures.map((f) => f.peer ?? '')],
  ];
  const widths = cols.map((c) => Math.max(...c.map((x) => x.length)));
  for (let i = 0; i <= figures.length; i++) {
    const line = cols.map((c, k) => (c[i] ?? '').padEnd(widths[k]!)).join('  ');
    const notes = i === 0 ? 'notes' : (figures[i - 1]!.notes ?? '');
    console.log(`${line}  ${notes}`.trimEnd());
  }
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A small self-contained HTML page: the figures table and, when the build wrote it, the treemap. */
export function writeHtmlReport(file: string, figures: readonly Figure[], meta: { at: string; node: string; treemap?: string }): void {
  const rows = figures
    .map((f) => {
      const state = f.met === undefined ? '' : f.met ? 'met' : 'missed';
      const goal = f.goal ? `${f.goal}${f.budget ? ' (budget)' : ''}` : '';
      return `<tr class="${state}"><th scope="row">${escapeHtml(f.figure)}</th><td>${escapeHtml(f.value)}</td><td>${escapeHtml(goal)}${
        state ? ` <span>(${state})</span>` : ''
      }</td><td>${escapeHtml(f.peer ?? '')}</td><td>${escapeHtml(f.notes ?? '')}</td></tr>`;
    })
    .join('\n');
  const treemap = meta.treemap ? relative(dirname(file), meta.treemap) : undefined;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Circle: bench ${escapeHtml(meta.at)}</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #1b1b1f; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid #ddd; vertical-align: top; }
thead th { background: #f0f0f4; }
tr.missed td:nth-child(3) { color: #b00020; font-weight: 600; }
tr.met td:nth-child(3) { color: #1b5e20; }
iframe { width: 100%; height: 80vh; border: 1px solid #ddd; margin-top: 16px; }
</style>
</head>
<body>
<h1>Circle: bench</h1>
<p>Measured ${escapeHtml(meta.at)} on Node ${escapeHtml(meta.node)}.${treemap ? ` Bundle treemap: <a href="${escapeHtml(treemap)}">${escapeHtml(treemap)}</a>.` : ''}</p>
<table>
<thead><tr><th scope="col">Figure</th><th scope="col">Value</th><th scope="col">Goal</th><th scope="col">Peer, same run</th><th scope="col">Notes</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
${treemap ? `<h2>What each module weighs</h2>\n<iframe title="Bundle treemap" src="${escapeHtml(treemap)}"></iframe>` : ''}
</body>
</html>
`;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, html);
}

/**
 * The largest contentful paint of a hydrated route may come at most this long after its first one,
 * as the page painted them (the simulated gap is printed beside it, against the floor's).
 */
const LCP_AFTER_FCP_BUDGET_MS = 50;
const BUDGETS = JSON.parse(readFileSync(resolve(import.meta.dirname, '../budgets.json'), 'utf8')) as Record<
  string,
  { limit: number; goal: number }
>;

const KB = 1024;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** What ran in a task, in a few words: its longest script and what called it. */
function scriptName(task: LongTask): string {
  const main = task.scripts[0];
  if (!main) return 'no script (style, layout or parsing)';
  const file = main.file ? basename(main.file) : "the browser's";
  const caller = main.invoker && !/^https?:/.test(main.invoker) ? `, ${main.invoker}` : '';
  return `${file} (${main.kind}${caller}${main.functionName ? `, ${main.functionName}()` : ''})`;
}

function bundleRows(b: BundleFigures): Figure[] {
  const react = b.firstLoad.files.filter((f) => REACT_CHUNK.test(f.file)).map((f) => basename(f.file));
  const app = BUDGETS.firstLoadAppJsGzip!;
  return [
    {
      figure: 'first load JS+CSS gzip',
      value: kb(b.firstLoad.gzip),
      goal: '≤ 75 KB',
      met: b.firstLoad.gzip <= 75 * KB,
      notes: `JS ${kb(b.firstLoad.js)}, CSS ${kb(b.firstLoad.css)}; treemap: reports/bundle/treemap.html`,
    },
    { figure: "first load JS: React's part (react, react-dom, scheduler)", value: kb(b.firstLoad.reactJs), notes: react.join(', ') },
    {
      figure: "first load JS: the app's own",
      value: kb(b.firstLoad.appJs),
      goal: `≤ ${kb(app.goal)}`,
      met: b.firstLoad.appJs <= app.goal,
      notes: `every other JS file of the first load; budgets.json limit ${kb(app.limit)}`,
    },
    { figure: 'largest lazy chunk gzip', value: kb(b.largestLazyChunk.gzip), notes: b.largestLazyChunk.file ?? '' },
    {
      figure: 'precache',
      value: kb(b.precache.bytes),
      goal: '≤ 350 KB',
      met: b.precache.bytes <= 350 * KB,
      notes: `${b.precache.entries} entries, ${kb(b.precache.gzip)} gzip`,
    },
  ];
}

function firstLoadRows(first: FirstLoad): Figure[] {
  const cold = BUDGETS.coldVisitGzip!;
  return [
    { figure: 'first load of / : requests', value: String(first.requests) },
    {
      figure: 'first load JS+CSS, as served (brotli)',
      value: kb(first.jsCssTransferred),
      notes: `${first.jsCssRequests} files`,
    },
    {
      figure: 'cold visit of /: all JS+CSS by idle, gzip',
      value: kb(first.idleJsCssGzip),
      goal: `≤ ${kb(cold.limit)}`,
      met: first.idleJsCssGzip <= cold.limit,
      budget: true,
      notes: `${first.idleJsCssFiles} files, the prefetch of other screens included; largest: ${first.idleFiles
        .slice(0, 6)
        .map((f) => `${basename(f.file)} ${kb(f.gzip)}`)
        .join(', ')}`,
    },
  ];
}

/** A floor page's figures, for the peer column of a route's (none when it was not measured). */
function floorPeer(floor: Floor | undefined, value: (lh: RouteLighthouse) => string): string | undefined {
  const measured = (page: FloorPage) => {
    const lh = floor?.lighthouse[page];
    return lh && !lh.median.error ? value(lh) : null;
  };
  const bare = measured('bare');
  const script = measured('script');
  if (bare === null) return undefined;
  return `bare page ${bare}${script === null ? '' : `; + a script ${script}`}`;
}

function lighthouseRows(path: string, lh: RouteLighthouse, floor: Floor | undefined): Figure[] {
  const c = lh.median.categories;
  const m = lh.median.metrics;
  const o = lh.median.observed;
  const runs = `median of ${lh.runs}`;
  const budget = (gap: number) =>
    lh.hydrated ? { goal: `≤ ${LCP_AFTER_FCP_BUDGET_MS} ms`, met: gap <= LCP_AFTER_FCP_BUDGET_MS, budget: true } : {};
  if (lh.median.error) {
    // Nothing measured: a hydrated route's budget cannot be said to hold.
    return [
      {
        figure: `${path} LCP − FCP as painted`,
        value: 'not measured',
        ...budget(Number.POSITIVE_INFINITY),
        notes: `Lighthouse: ${lh.median.error}`,
      },
    ];
  }
  const ms = (value: number) => `${Math.round(value)} ms`;
  return [
    {
      figure: `${path} LCP − FCP as painted (${runs})`,
      value: ms(lh.paintedLcpAfterFcp),
      ...budget(lh.paintedLcpAfterFcp),
      notes: `LCP element: ${lh.median.lcpElement ?? 'none found'}; FCP ${ms(o.fcp)}, LCP ${ms(o.lcp)} in Lighthouse's trace${
        lh.hydrated
          ? ''
          : "; not held to the budget: a members' page, which sends a visitor signed out (as Lighthouse is) on to sign-in before it paints; these are that visit's figures"
      }`,
    },
    {
      figure: `${path} LCP − FCP (mobile, simulated, ${runs})`,
      value: ms(lh.lcpAfterFcp),
      goal: `≤ ${LCP_AFTER_FCP_BUDGET_MS} ms`,
      met: lh.lcpAfterFcp <= LCP_AFTER_FCP_BUDGET_MS,
      peer: floorPeer(floor, (f) => ms(f.lcpAfterFcp)),
      notes:
        "the simulation puts the requests that start before the largest paint but do not block the first on the largest paint's path only: the app's module scripts on every run, the bare page's favicon when it starts in time",
    },
    {
      figure: `${path} Lighthouse performance`,
      value: String(c.performance),
      goal: '100',
      met: c.performance === 100,
      peer: floorPeer(floor, (f) => String(f.median.categories.performance)),
    },
    {
      figure: `${path} Lighthouse a11y / BP / SEO`,
      value: `${c.accessibility} / ${c['best-practices']} / ${c.seo}`,
      goal: '100 each',
      met: c.accessibility === 100 && c['best-practices'] === 100 && c.seo === 100,
    },
    {
      figure: `${path} FCP (mobile, simulated)`,
      value: ms(m.fcp),
      goal: '≤ 800 ms',
      met: m.fcp <= 800,
      peer: floorPeer(floor, (f) => ms(f.median.metrics.fcp)),
    },
    {
      figure: `${path} LCP`,
      value: ms(m.lcp),
      goal: '≤ 800 ms',
      met: m.lcp <= 800,
      peer: floorPeer(floor, (f) => ms(f.median.metrics.lcp)),
    },
    { figure: `${path} CLS`, value: m.cls.toFixed(3), goal: '0', met: m.cls === 0 },
    { figure: `${path} TBT`, value: ms(m.tbt), goal: '≤ 50 ms', met: m.tbt <= 50, peer: floorPeer(floor, (f) => ms(f.median.metrics.tbt)) },
    ...paintGoals(path, lh, floor),
  ];
}

/** A hydrated route's three paint goals against the bare page of the same run (none without it). */
function paintGoals(path: string, lh: RouteLighthouse, floor: Floor | undefined): Figure[] {
  const bare = floor?.lighthouse.bare;
  if (!lh.hydrated || !bare || bare.median.error) return [];
  const route = lh.median.categories.performance;
  const floorScore = bare.median.categories.performance;
  if (route === undefined || floorScore === undefined) return [];
  return paintGoalRows(
    path,
    { fcp: lh.median.metrics.fcp, lcp: lh.median.metrics.lcp, performance: route },
    { fcp: bare.median.metrics.fcp, lcp: bare.median.metrics.lcp, performance: floorScore },
  );
}

const FLOOR_LABELS: Record<FloorPage, string> = {
  bare: 'a bare page',
  script: 'a bare page with one render-blocking script',
};

/** The floor's own rows: what this machine gives a page that does next to nothing. */
function floorRows(floor: Floor): Figure[] {
  const rows: Figure[] = [];
  for (const [page, lh] of Object.entries(floor.lighthouse) as [FloorPage, RouteLighthouse][]) {
    const figure = `floor: ${FLOOR_LABELS[page]}, FCP / LCP (mobile, simulated, median of ${lh.runs})`;
    if (lh.median.error) {
      rows.push({ figure, value: 'not measured', notes: `Lighthouse: ${lh.median.error}` });
      continue;
    }
    const m = lh.median.metrics;
    rows.push({
      figure,
      value: `${Math.round(m.fcp)} / ${Math.round(m.lcp)} ms`,
      notes: `LCP − FCP ${Math.round(lh.lcpAfterFcp)} ms simulated, ${Math.round(lh.paintedLcpAfterFcp)} ms as painted; TBT ${Math.round(m.tbt)} ms; performance ${lh.median.categories.performance}; a heading, a paragraph, a stylesheet, a favicon and the app's response headers`,
    });
  }
  if (floor.longTasks) {
    rows.push({
      figure: "floor: a bare page's longest task during load, 4× CPU",
      value: `${floor.longTasks.longestMs} ms`,
      notes: `${floor.longTasks.tasks.length} over 50 ms: the browser's own work (the document's commit, the first style and layout)`,
    });
  }
  return rows;
}

function longTaskRows(t: RouteLongTasks, floor: Floor | undefined): Figure[] {
  const longest = t.tasks[0];
  const react = t.reactEvaluation;
  return [
    {
      figure: `${t.path} longest task during load, 4× CPU`,
      value: `${t.longestMs} ms`,
      ...(floor?.longTasks ? { peer: `bare page ${floor.longTasks.longestMs} ms` } : {}),
      notes: longest
        ? `script: ${scriptName(longest)}${longest === react ? ": React's evaluation (with the app's modules)" : ''}`
        : 'none over 50 ms',
    },
    {
      figure: `${t.path} tasks over 50 ms but React's evaluation`,
      value: String(t.others.length),
      goal: '0',
      met: t.others.length === 0,
      ...(floor?.longTasks ? { peer: `bare page ${floor.longTasks.tasks.length}` } : {}),
      notes: t.others
        .slice(0, 4)
        .map((task) => `${task.duration} ms ${scriptName(task)}`)
        .join('; '),
    },
  ];
}

/** A run's results as the report's rows; a full run (bench/options.ts) asks for the suites' times too. */
export function figures(r: Results, fullRun: boolean): Figure[] {
  const f: Figure[] = [];
  if (r.bundle) f.push(...bundleRows(r.bundle));
  if (r.firstLoad) f.push(...firstLoadRows(r.firstLoad));
  if (r.floor) f.push(...floorRows(r.floor));
  for (const [path, lh] of Object.entries(r.lighthouse ?? {})) f.push(...lighthouseRows(path, lh, r.floor));
  for (const t of r.longTasks ?? []) f.push(...longTaskRows(t, r.floor));
  if (r.warm) {
    f.push({
      figure: 'warm FCP via service worker (median of 5)',
      value: `${Math.round(r.warm.fcp)} ms`,
      goal: '≤ 150 ms',
      met: r.warm.fcp <= 150,
    });
    f.push({ figure: 'warm DOMContentLoaded (median of 5)', value: `${Math.round(r.warm.dcl)} ms` });
  }
  for (const l of r.load ?? []) {
    f.push({
      figure: `GET ${l.target}, ${l.connections} conns, ${l.seconds} s`,
      value: `${l.requestsPerSecond} req/s`,
      notes: `p50 ${l.p50} ms, p99 ${l.p99} ms, errors ${l.errors}, non-2xx ${l.non2xx}${l.heapGrowthMb !== undefined ? `, live heap ${l.heapGrowthMb >= 0 ? '+' : ''}${l.heapGrowthMb} MB after the soak` : ''}`,
    });
  }
  if (r.mockThroughput) f.push(...throughputFigures(r.mockThroughput));
  for (const v of r.verify ?? []) f.push(verifyFigure(v));
  if (r.testTimes) {
    for (const t of r.testTimes.results) f.push({ figure: `npm test: ${t.suite}`, value: `${t.seconds} s`, notes: t.ok ? 'pass' : 'FAIL' });
    f.push({
      figure: 'npm test: total',
      value: `${r.testTimes.total.toFixed(1)} s`,
      // The gate's target: the whole of `npm test` within ten minutes on two cores.
      goal: '≤ 600 s',
      met: r.testTimes.total <= 600,
      notes: `measured ${r.testTimes.at}`,
    });
  } else if (fullRun) {
    f.push({ figure: 'npm test suite times', value: 'not measured', notes: 'run npm test first (it writes .cache/test-times.json)' });
  }
  return f;
}

/** A verify run's time; the goal is held at the side-by-side concurrency. */
function verifyFigure(v: VerifyTiming): Figure {
  const goal = VERIFY_GOALS[v.target];
  const held = v.concurrency === VERIFY_CONCURRENCY;
  return {
    figure: `verify against ${v.target === 'embedded mock' ? 'the embedded mock' : v.target}, --concurrency ${v.concurrency}`,
    value: `${v.seconds} s`,
    ...(held ? { goal: `< ${goal} s`, met: v.seconds < goal } : {}),
    notes: `exit ${v.code}${v.target === "Prism's mock" ? ' (not conformant: it answers examples and keeps no state)' : ''}`,
  };
}

/** The mock's throughput beside Prism's on the same request, measured in the same run. */
function throughputFigures(results: ThroughputResult[]): Figure[] {
  const prism = results.find((t) => t.server === 'Prism mock');
  return results
    .filter((t) => t !== prism)
    .map((t) => ({
      figure: `${t.server}: ${t.request}, ${t.connections} conns, ${t.seconds} s`,
      value: `${t.requestsPerSecond} req/s`,
      ...(prism && t.request.startsWith('GET') ? { peer: `Prism: ${prism.requestsPerSecond} req/s` } : {}),
      notes: `p50 ${t.p50} ms, p99 ${t.p99} ms, errors ${t.errors}, non-2xx ${t.non2xx}`,
    }));
}
