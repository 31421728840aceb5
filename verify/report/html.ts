/** A small self-contained HTML page: the summary, the coverage matrix and the failures. No script, no external resource. */
import { statusSeen, type RunResults } from '../results.ts';
import { summaryLine } from './console.ts';

const esc = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#1b1b1f;background:#fff}
h1{font-size:1.3rem}table{border-collapse:collapse;margin:1rem 0}th,td{border:1px solid #c8c8d0;padding:.2rem .45rem;text-align:left}
td.c{text-align:center}.pass{color:#0a6b2e}.fail{color:#a4141b;font-weight:600}.skip{color:#5c5c66}.seen{background:#dff3e4}.unseen{background:#fbe9e9}
pre{white-space:pre-wrap;word-break:break-all;background:#f4f4f7;padding:.5rem;border-radius:4px}section{border-top:1px solid #ddd;margin-top:1rem}`;

export function htmlReport(results: RunResults): string {
  const statuses = [...new Set(results.operations.flatMap((o) => o.documented))].sort();
  const rows = results.operations.map((o) => {
    const cells = statuses.map((s) => {
      if (!o.documented.includes(s)) return '<td></td>';
      const seen = statusSeen(s, o.seen);
      return `<td class="c ${seen ? 'seen' : 'unseen'}" title="${seen ? 'answered' : 'never answered'}">${seen ? '✓' : '·'}</td>`;
    });
    return `<tr><td class="${o.status}">${o.status.toUpperCase()}</td><td>${esc(o.operationId)}</td><td><code>${esc(`${o.method} ${o.path}`)}</code></td>${cells.join('')}<td>${esc(o.why)}</td></tr>`;
  });
  const failures = results.operations.flatMap((o) =>
    Object.values(o.checks).flatMap((c) =>
      c.failures.map(
        (f) => `<section><h3 class="fail">${esc(f.operationId)} <code>${esc(`${f.method} ${f.path}`)}</code> — ${esc(f.check)}</h3>
<p>${esc(f.title)}</p><pre>${esc(f.curl)}</pre><p>Answer: <code>${esc(f.response)}</code></p>
${f.violations.length ? `<ul>${f.violations.map((v) => `<li>${esc(v.message)} <small>(instancePath <code>${esc(v.instancePath ?? '')}</code>, schemaPath <code>${esc(v.schemaPath ?? '-')}</code>)</small></li>`).join('')}</ul>` : ''}
${f.sequence ? `<p>Shortest sequence (the last request fails):</p><pre>${esc(f.sequence.join('\n'))}</pre>` : ''}${f.replay ? `<p>Replay: <code>${esc(f.replay)}</code></p>` : ''}</section>`,
      ),
    ),
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>verify: ${esc(results.baseUrl)}</title><style>${STYLE}</style></head>
<body><h1>verify: ${esc(results.baseUrl)}</h1>
<p>${esc(summaryLine(results))} — seed ${results.seed}, ${(results.ms / 1000).toFixed(1)} s, ${esc(results.spec)}</p>
<table><thead><tr><th></th><th>operation</th><th>request</th>${statuses.map((s) => `<th>${esc(s)}</th>`).join('')}<th></th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>
${
  results.links.length === 0
    ? ''
    : `<h2>Links</h2><table><thead><tr><th>link</th><th>followed</th><th>answered</th><th></th></tr></thead><tbody>${results.links
        .map(
          (l) =>
            `<tr><td class="${l.followed === 0 ? 'skip' : l.failures > 0 ? 'fail' : 'pass'}">${esc(l.key)}</td><td>${l.followed}</td><td>${esc(
              Object.entries(l.statuses)
                .map(([status, n]) => `${status} ×${n}`)
                .join(', '),
            )}</td><td>${esc(l.why ?? (l.failures > 0 ? `${l.failures} failing` : ''))}</td></tr>`,
        )
        .join('\n')}</tbody></table>`
}
<h2>Failures</h2>${failures.length ? failures.join('\n') : '<p>None.</p>'}
</body></html>
`;
}
