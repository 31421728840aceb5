import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';

/** One figure of the bench: its value beside its goal and, where one was measured, a peer's. */
export interface Figure {
  figure: string;
  value: string;
  goal?: string;
  /** true: meets the goal; false: misses it; undefined: no goal. */
  met?: boolean;
  /** The goal is a budget: missing it fails the bench. */
  budget?: boolean;
  peer?: string;
  notes?: string;
}

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
