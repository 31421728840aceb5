// @vitest-environment node
/**
 * Keeps the README and the guides under docs/ true to the repository: the README stays a short
 * map, every relative link reaches a file (and the heading it names), and every npm script the
 * documents name exists in package.json.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const README_MAX_LINES = 200;

const DOCUMENTS = [
  'README.md',
  ...readdirSync(resolve(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const read = (path: string) => readFileSync(resolve(ROOT, path), 'utf8');

/** The text outside fenced code blocks and inline code, where a link or a heading is markdown's. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as hyphens. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const withoutFences = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const [, heading] of withoutFences.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = heading!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Every relative link of a document: its target path (from the repository's root) and anchor. */
function relativeLinks(path: string): { target: string; anchor: string | null; raw: string }[] {
  const links = [];
  for (const [, raw] of prose(read(path)).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(raw!)) continue;
    const [file, anchor] = raw!.split('#', 2) as [string, string | undefined];
    const target = file === '' ? path : relative(ROOT, resolve(ROOT, dirname(path), decodeURI(file)));
    links.push({ target, anchor: anchor ?? null, raw: raw! });
  }
  return links;
}

describe('the documents', () => {
  it(`keep the README a map of at most ${README_MAX_LINES} lines`, () => {
    const lines = read('README.md').replace(/\n$/, '').split('\n').length;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it('link only to files that exist, and to headings they have', () => {
    const broken: string[] = [];
    for (const path of DOCUMENTS) {
      for (const { target, anchor, raw } of relativeLinks(path)) {
        if (target.startsWith('..')) broken.push(`${path}: ${raw} leaves the repository`);
        else if (!existsSync(resolve(ROOT, target))) broken.push(`${path}: ${raw} (no ${target})`);
        else if (anchor !== null && target.endsWith('.md') && statSync(resolve(ROOT, target)).isFile()) {
          if (!headingAnchors(read(target)).has(anchor)) broken.push(`${path}: ${raw} (no heading #${anchor} in ${target})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('name only npm scripts that package.json has', () => {
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
    const missing: string[] = [];
    for (const path of DOCUMENTS) {
      const text = read(path);
      const named = [
        ...[...text.matchAll(/\bnpm run(?:\s+-s)?\s+([a-z][\w:.-]*)/g)].map((m) => m[1]!),
        ...[...text.matchAll(/\bnpm (start|test)\b/g)].map((m) => m[1]!),
      ];
      for (const name of new Set(named)) if (!scripts.includes(name)) missing.push(`${path}: npm run ${name}`);
    }
    expect(missing).toEqual([]);
  });

  it('give the README the guides it names, each linked', () => {
    const readme = read('README.md');
    for (const guide of ['verify', 'mock', 'accounts', 'offline', 'testing', 'architecture']) {
      expect(existsSync(resolve(ROOT, `docs/${guide}.md`)), `docs/${guide}.md`).toBe(true);
      expect(readme).toContain(`](docs/${guide}.md)`);
    }
  });
});

describe('headingAnchors', () => {
  it('makes the anchors GitHub makes, duplicates numbered', () => {
    const anchors = headingAnchors(
      "# Title\n## The mock's own endpoints: `/__mock/`\n### Inside `src/`: the layers\n## Options\n## Options\n```sh\n# not a heading\n```\n",
    );
    expect([...anchors]).toEqual(['title', 'the-mocks-own-endpoints-__mock', 'inside-src-the-layers', 'options', 'options-1']);
  });
});
