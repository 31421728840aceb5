// Fails when src/api/schema.d.ts is not what openapi-typescript makes of openapi.yaml today.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'circle-schema-'));
try {
  const fresh = join(dir, 'schema.d.ts');
  execFileSync(
    process.execPath,
    [
      resolve(root, 'node_modules/openapi-typescript/bin/cli.js'),
      resolve(root, 'openapi.yaml'),
      '--redocly',
      resolve(root, 'scripts/redocly-generate.yaml'),
      '-o',
      fresh,
    ],
    { stdio: 'pipe' },
  );
  const committed = readFileSync(resolve(root, 'src/api/schema.d.ts'), 'utf8');
  if (readFileSync(fresh, 'utf8') !== committed) {
    console.error('src/api/schema.d.ts is stale: run `npm run gen:api` and commit the result.');
    process.exit(1);
  }
  console.log('src/api/schema.d.ts matches openapi.yaml.');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
