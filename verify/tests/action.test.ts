import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { maskCommands, readInputs, summaryOf, verifyArgs } from '../ci-step.ts';
import { type EmbeddedMock, startEmbeddedMock } from '../mock.ts';
import { ROOT, run } from '../../testkit/index.ts';

/**
 * The GitHub Action of verify (verify/action.yml) and its step (verify/ci-step.ts): the action hands
 * every input to the step, and the step, run as the action runs it, checks a server, masks the
 * credentials, and writes the reports, the job summary and the outputs.
 */
interface ActionFile {
  inputs: Record<string, { required?: boolean; default?: string }>;
  runs: { using: string; steps: Array<{ id?: string; env?: Record<string, string>; run?: string }> };
}
const action = parse(readFileSync(resolve(ROOT, 'verify/action.yml'), 'utf8')) as ActionFile;
const stepEnv = action.runs.steps.find((s) => s.id === 'verify')?.env ?? {};
const variableOf = (input: string) => `CIRCLE_VERIFY_${input.toUpperCase().replace(/-/g, '_')}`;

describe('verify/action.yml', () => {
  it('is a composite action whose verify step runs the step script', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.runs.steps.find((s) => s.id === 'verify')?.run).toBe('node verify/ci-step.ts');
  });

  it('hands every input to the step, each as its own variable, and only the inputs', () => {
    const inputs = Object.keys(action.inputs);
    expect(Object.keys(stepEnv).sort()).toEqual(inputs.map(variableOf).sort());
    for (const input of inputs) expect(stepEnv[variableOf(input)]).toBe(`\${{ inputs.${input} }}`);
  });

  it('the step reads each of those variables into the command line', () => {
    const env = Object.fromEntries(Object.keys(stepEnv).map((name) => [name, `v-${name.toLowerCase()}`]));
    env.CIRCLE_VERIFY_BASE_URL = 'http://127.0.0.1:1/api';
    env.CIRCLE_VERIFY_HEADERS = 'Authorization: Bearer a';
    env.CIRCLE_VERIFY_OTHER_HEADERS = 'Authorization: Bearer b';
    env.CIRCLE_VERIFY_ADMIN_HEADERS = 'Authorization: Bearer c';
    env.CIRCLE_VERIFY_REFUSED_HEADERS = 'Authorization: Bearer d\nAuthorization: Bearer e';
    env.CIRCLE_VERIFY_ARGS = '--runs 2';
    const inputs = readInputs(env);
    if ('problem' in inputs) throw new Error(inputs.problem);
    expect(verifyArgs(inputs, '/work')).toEqual([
      '--base-url',
      'http://127.0.0.1:1/api',
      '--spec',
      '/work/v-circle_verify_spec',
      '--header',
      'Authorization: Bearer a',
      '--other-header',
      'Authorization: Bearer b',
      '--admin-header',
      'Authorization: Bearer c',
      '--refused-header',
      'Authorization: Bearer d',
      '--refused-header',
      'Authorization: Bearer e',
      '--junit',
      '/work/v-circle_verify_junit',
      '--html',
      '/work/v-circle_verify_html',
      '--json',
      '/work/v-circle_verify_json',
      '--runs',
      '2',
    ]);
  });
});

describe('the step, piece by piece', () => {
  it('takes one header per line, and leaves out blank lines and empty inputs', () => {
    const inputs = readInputs({
      CIRCLE_VERIFY_BASE_URL: ' http://h/api ',
      CIRCLE_VERIFY_HEADERS: 'Authorization: Bearer x\n\n  X-Api-Key: k  \r\n',
      CIRCLE_VERIFY_ARGS: ' --quiet\n--runs  3 ',
    });
    expect(inputs).toEqual({
      baseUrl: 'http://h/api',
      spec: '',
      headers: ['Authorization: Bearer x', 'X-Api-Key: k'],
      otherHeaders: [],
      adminHeaders: [],
      refusedHeaders: [],
      junit: '',
      html: '',
      json: '',
      args: ['--quiet', '--runs', '3'],
    });
    if ('problem' in inputs) return;
    expect(verifyArgs(inputs, '/w')).toEqual([
      '--base-url',
      'http://h/api',
      '--header',
      'Authorization: Bearer x',
      '--header',
      'X-Api-Key: k',
      '--quiet',
      '--runs',
      '3',
    ]);
  });

  it('refuses an empty base URL with the reason', () => {
    expect(readInputs({ CIRCLE_VERIFY_BASE_URL: '  ' })).toEqual({
      problem: 'the base-url input is empty: give the API base URL of the server to check',
    });
  });

  it('masks each header value whole, and its long parts (a token after "Bearer")', () => {
    const inputs = readInputs({
      CIRCLE_VERIFY_BASE_URL: 'http://h/api',
      CIRCLE_VERIFY_HEADERS: 'Authorization: Bearer eyJhbGciOi.abc',
      CIRCLE_VERIFY_OTHER_HEADERS: 'X-Key: short',
      CIRCLE_VERIFY_REFUSED_HEADERS: 'Authorization: Bearer revoked.token',
    });
    if ('problem' in inputs) throw new Error(inputs.problem);
    expect(maskCommands(inputs)).toEqual([
      '::add-mask::Bearer eyJhbGciOi.abc',
      '::add-mask::eyJhbGciOi.abc',
      '::add-mask::short',
      '::add-mask::Bearer revoked.token',
      '::add-mask::revoked.token',
    ]);
  });

  it('says the verdict first in the summary, and keeps the end of a report too long for it', () => {
    expect(summaryOf(1, null, 'x\n')).toBe('### verify: ❌ not conformant\n\n```text\nx\n```\n');
    const long = `${'a'.repeat(70_000)}\nverify: 1 operations`;
    const summary = summaryOf(0, null, long);
    expect(summary).toContain('verify: 1 operations\n```');
    expect(summary.length).toBeLessThan(61_000);
  });
});

describe('the step, run as the action runs it', () => {
  let mock: EmbeddedMock;
  let workspace: string;
  beforeAll(async () => {
    mock = await startEmbeddedMock();
    workspace = mkdtempSync(join(tmpdir(), 'circle-action-'));
  });
  afterAll(async () => {
    await mock?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  const step = (env: Record<string, string>) =>
    run(process.execPath, ['--disable-warning=ExperimentalWarning', 'verify/ci-step.ts'], {
      GITHUB_WORKSPACE: workspace,
      GITHUB_STEP_SUMMARY: join(workspace, 'summary.md'),
      GITHUB_OUTPUT: join(workspace, 'output.txt'),
      ...env,
    });

  it('checks the server, masks the tokens, writes the reports, the summary and the outputs', { timeout: 180_000 }, async () => {
    const header = (headers: Array<[string, string]>) => headers.map(([n, v]) => `${n}: ${v}`).join('\n');
    const done = await step({
      CIRCLE_VERIFY_BASE_URL: mock.baseUrl,
      CIRCLE_VERIFY_HEADERS: header(mock.headers),
      CIRCLE_VERIFY_OTHER_HEADERS: header(mock.otherHeaders),
      CIRCLE_VERIFY_ADMIN_HEADERS: header(mock.adminHeaders),
      CIRCLE_VERIFY_JUNIT: 'reports/verify.xml',
      CIRCLE_VERIFY_HTML: 'verify.html',
      // A busy machine may keep an answer past the default 10 s; what is tested is the step, not the speed.
      CIRCLE_VERIFY_ARGS: '--runs 2 --quiet --request-timeout 60',
    });
    expect(done.code, done.stderr).toBe(0);
    const token = mock.headers[0]![1].replace(/^Bearer /, '');
    // The masks come before anything else is printed.
    expect(done.stdout.startsWith(`::add-mask::Bearer ${token}\n::add-mask::${token}\n`)).toBe(true);
    expect(existsSync(join(workspace, 'reports/verify.xml'))).toBe(true);
    expect(readFileSync(join(workspace, 'verify.html'), 'utf8')).toContain('<html');
    const summary = readFileSync(join(workspace, 'summary.md'), 'utf8');
    expect(summary).toMatch(/^### verify: ✅ conformant — `http:\/\/127\.0\.0\.1:\d+\/api` against `openapi\.yaml`\n/);
    expect(summary).toMatch(/verify: \d+ operations, \d+ passed, 0 failed/);
    expect(readFileSync(join(workspace, 'output.txt'), 'utf8')).toBe(
      `conformant=true\nexit-code=0\njunit=${join(workspace, 'reports/verify.xml')}\nhtml=${join(workspace, 'verify.html')}\n`,
    );
  });

  it('an empty base URL is "could not run", in the summary and the outputs', async () => {
    rmSync(join(workspace, 'summary.md'), { force: true });
    rmSync(join(workspace, 'output.txt'), { force: true });
    const done = await step({ CIRCLE_VERIFY_BASE_URL: '' });
    expect(done.code).toBe(2);
    expect(done.stderr).toBe('verify: the base-url input is empty: give the API base URL of the server to check\n');
    expect(readFileSync(join(workspace, 'summary.md'), 'utf8')).toContain('### verify: ⚠️ could not run\n');
    expect(readFileSync(join(workspace, 'output.txt'), 'utf8')).toBe('conformant=false\nexit-code=2\n');
  });
});
