/**
 * The report a person reads: one line per operation (`PASS|FAIL|SKIP  operationId  METHOD /path
 * (why)`), each failure with its request as a curl line, the answer and the violated schema paths,
 * the coverage matrix, and the summary line.
 */
import { DEFAULT_RUNS } from '../args.ts';
import { statusSeen, type RunResults } from '../results.ts';

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));

function operationLines(results: RunResults, { quiet = false } = {}): string[] {
  const idWidth = Math.max(...results.operations.map((o) => o.operationId.length));
  const routeWidth = Math.max(...results.operations.map((o) => o.method.length + o.path.length + 1));
  return results.operations
    .filter((o) => !quiet || o.status === 'fail')
    .map(
      (o) => `${pad(o.status.toUpperCase(), 4)}  ${pad(o.operationId, idWidth)}  ${pad(`${o.method} ${o.path}`, routeWidth)}  (${o.why})`,
    );
}

/** The command that runs the same checks again: the same seed draws the same requests. */
export function replayCommand(results: RunResults): string {
  const base = results.embedded ? '' : `--base-url ${results.baseUrl} `;
  const spec = results.spec === 'openapi.yaml' ? '' : `--spec ${results.spec} `;
  const runs = results.runs === DEFAULT_RUNS ? '' : `--runs ${results.runs} `;
  return `npm run verify -- ${base}${spec}${runs}--seed ${results.seed}`;
}

function failureBlocks(results: RunResults): string[] {
  const out: string[] = [];
  let n = 0;
  for (const o of results.operations) {
    for (const check of Object.values(o.checks)) {
      for (const f of check.failures) {
        n++;
        out.push(`${n}) ${f.operationId}  ${f.method} ${f.path}  [${f.check}]`);
        out.push(`   ${f.title}`);
        out.push(`   request:  ${f.curl}`);
        out.push(`   response: ${f.response.replaceAll('\n', ' ')}`);
        for (const v of f.violations) {
          const where =
            v.instancePath !== undefined || v.schemaPath
              ? `  (instancePath '${v.instancePath ?? ''}', schemaPath ${v.schemaPath ?? '-'})`
              : '';
          out.push(`   violated: ${v.message}${where}`);
        }
        if (f.sequence) {
          out.push('   shortest sequence (the last request fails):');
          for (const line of f.sequence) out.push(`     ${line}`);
        }
        out.push(`   replay:   ${replayCommand(results)}${f.replay ? `   (${f.replay})` : ''}`);
        out.push('');
      }
      if (check.note && check.status === 'fail') out.push(`   ${o.operationId} [${check.failures[0]?.check}]: ${check.note}`, '');
    }
  }
  return out;
}

/** Operation × documented status: ✓ answered during the run, · documented but never answered. */
function coverageMatrix(results: RunResults): string[] {
  const statuses = [...new Set(results.operations.flatMap((o) => o.documented))].sort();
  const idWidth = Math.max(...results.operations.map((o) => o.operationId.length));
  const lines = [`${pad('', idWidth)}  ${statuses.map((s) => pad(s, 4)).join('')}`];
  for (const o of results.operations) {
    const cells = statuses.map((s) => pad(o.documented.includes(s) ? (statusSeen(s, o.seen) ? '✓' : '·') : '', 4));
    lines.push(`${pad(o.operationId, idWidth)}  ${cells.join('')}`.trimEnd());
  }
  return lines;
}

export function summaryLine(results: RunResults): string {
  const s = results.summary;
  const links = s.links > 0 ? `, ${s.linksFollowed} of ${s.links} links followed` : '';
  return `verify: ${s.operations} operations, ${s.passed} passed, ${s.failed} failed, ${s.notExercised} not exercised, ${s.requests} requests; ${s.statusesSeen} of ${s.statuses} documented statuses answered${links}`;
}

/** Each link of the document: followed how often and what its target answered, or why not (in --quiet, only those not followed). */
function linkLines(results: RunResults, { quiet = false } = {}): string[] {
  const width = Math.max(0, ...results.links.map((l) => l.key.length));
  return results.links
    .filter((l) => !quiet || l.followed === 0)
    .map((l) => {
      if (l.followed === 0) return `·  ${pad(l.key, width)}  not followed: ${l.why}`;
      const answered = Object.entries(l.statuses)
        .map(([status, n]) => `${status} ×${n}`)
        .join(', ');
      return `${l.failures > 0 ? '✗' : '✓'}  ${pad(l.key, width)}  followed ${l.followed}×, answered ${answered}${l.failures > 0 ? `, ${l.failures} failing` : ''}`;
    });
}

/** The variables the failures' curl lines read credentials from (curl.ts names them), in order of first use. */
function credentialVariables(results: RunResults): string[] {
  const lines = results.operations.flatMap((o) =>
    Object.values(o.checks).flatMap((c) => c.failures.flatMap((f) => [f.curl, ...(f.sequence ?? [])])),
  );
  return [...new Set(lines.flatMap((line) => [...line.matchAll(/\$\{?(VERIFY_[A-Z0-9_]+)/g)].map((m) => `$${m[1]}`)))];
}

export function consoleReport(results: RunResults, { quiet = false } = {}): string {
  const out: string[] = [];
  out.push(...operationLines(results, { quiet }));
  const failures = failureBlocks(results);
  if (failures.length > 0) {
    out.push('', 'Failures:', '');
    out.push(...failures);
    const variables = credentialVariables(results);
    if (variables.length > 0)
      out.push(
        `(The curl lines read the credentials from ${variables.join(', ')}: the values given with --header, or with --other-header (_OTHER_), --admin-header (_ADMIN_), the Nth --refused-header (_REFUSED_N_).)`,
        '',
      );
  }
  const cut = results.operations.flatMap((o) =>
    Object.entries(o.checks).flatMap(([name, c]) => (c.unexercised ? [`${o.operationId} [${name}]: ${c.unexercised}`] : [])),
  );
  if (cut.length > 0) out.push('', 'Not exercised in full:', ...cut);
  if (results.notes.length > 0) out.push('', ...results.notes.map((n) => `note: ${n}`));
  if (!quiet) {
    out.push('', 'Coverage (operation × documented status; ✓ answered, · never answered):', ...coverageMatrix(results));
  }
  const links = linkLines(results, { quiet });
  if (links.length > 0) out.push('', 'Links (✓ followed, ✗ followed with failures, · not followed):', ...links);
  out.push('', summaryLine(results));
  return `${out.join('\n')}\n`;
}
