/** JUnit XML: one testsuite, one testcase per operation and check, a failure per finding, skipped with its reason. */
import { CHECK_DESCRIPTIONS, type Failure, type RunResults } from '../results.ts';

/** Text for XML: the five entities escaped, and characters XML 1.0 cannot carry replaced. */
export function xmlEscape(s: string): string {
  return (
    s
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')
      .replaceAll('"', '&quot;')
      .replaceAll("'", '&apos;')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters XML 1.0 forbids.
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd')
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
  );
}

function failureText(f: Failure): string {
  const lines = [f.title, `request:  ${f.curl}`, `response: ${f.response}`];
  for (const v of f.violations)
    lines.push(`violated: ${v.message} (instancePath '${v.instancePath ?? ''}', schemaPath ${v.schemaPath ?? '-'})`);
  if (f.sequence) lines.push('shortest sequence:', ...f.sequence.map((l) => `  ${l}`));
  if (f.replay) lines.push(`replay: ${f.replay}`);
  return lines.join('\n');
}

export function junitReport(results: RunResults): string {
  const cases: string[] = [];
  let tests = 0;
  let failures = 0;
  let skipped = 0;
  for (const o of results.operations) {
    for (const [name, check] of Object.entries(o.checks)) {
      tests++;
      const attrs = `classname="verify.${xmlEscape(o.operationId)}" name="${xmlEscape(`${o.operationId} ${name}`)}"`;
      const body: string[] = [];
      if (check.status === 'fail') {
        failures++;
        for (const f of check.failures)
          body.push(`<failure message="${xmlEscape(f.title)}" type="${xmlEscape(f.check)}">${xmlEscape(failureText(f))}</failure>`);
      } else if (check.status === 'skip') {
        skipped++;
        body.push(`<skipped message="${xmlEscape(check.note ?? 'not exercised')}"/>`);
      }
      const props = `<properties><property name="request" value="${o.method} ${xmlEscape(o.path)}"/><property name="check" value="${xmlEscape(CHECK_DESCRIPTIONS[name as keyof typeof CHECK_DESCRIPTIONS])}"/><property name="requests" value="${check.requests}"/></properties>`;
      cases.push(`    <testcase ${attrs} time="0">${props}${body.join('')}</testcase>`);
    }
  }
  const linkCases = results.links.map((l) => {
    const attrs = `classname="verify.links.${xmlEscape(l.from)}" name="${xmlEscape(l.key)}"`;
    let body = '';
    if (l.followed === 0) body = `<skipped message="${xmlEscape(`not followed: ${l.why ?? ''}`)}"/>`;
    else if (l.failures > 0)
      body = `<failure message="${xmlEscape(`${l.failures} of ${l.followed} follows failed: see ${l.to}'s stateful failures`)}" type="links"/>`;
    const answered = Object.entries(l.statuses)
      .map(([status, n]) => `${status}x${n}`)
      .join(' ');
    return `    <testcase ${attrs} time="0"><properties><property name="followed" value="${l.followed}"/><property name="answered" value="${xmlEscape(answered)}"/></properties>${body}</testcase>`;
  });
  const linkFailures = results.links.filter((l) => l.followed > 0 && l.failures > 0).length;
  const linkSkipped = results.links.filter((l) => l.followed === 0).length;
  const time = (results.ms / 1000).toFixed(3);
  const linkSuite =
    linkCases.length === 0
      ? []
      : [
          `  <testsuite name="${xmlEscape(`verify ${results.baseUrl} links`)}" tests="${linkCases.length}" failures="${linkFailures}" errors="0" skipped="${linkSkipped}" time="0" timestamp="${results.startedAt}">`,
          ...linkCases,
          '  </testsuite>',
        ];
  tests += linkCases.length;
  failures += linkFailures;
  skipped += linkSkipped;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="verify" tests="${tests}" failures="${failures}" skipped="${skipped}" time="${time}">`,
    `  <testsuite name="${xmlEscape(`verify ${results.baseUrl}`)}" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${time}" timestamp="${results.startedAt}">`,
    `    <properties><property name="seed" value="${results.seed}"/><property name="spec" value="${xmlEscape(results.spec)}"/><property name="requests" value="${results.requests}"/></properties>`,
    ...cases,
    '  </testsuite>',
    ...linkSuite,
    '</testsuites>',
    '',
  ].join('\n');
}
