import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { OpenApiDocument } from './contract.ts';

export const SPEC_PATH = fileURLToPath(new URL('../openapi.yaml', import.meta.url));

/** openapi.yaml, parsed; a broken file stops the server with the parser's message. */
export function loadSpec(path = SPEC_PATH): OpenApiDocument {
  const doc = parse(readFileSync(path, 'utf8')) as Partial<OpenApiDocument> | null;
  if (!doc?.paths || !doc.components?.schemas) throw new Error(`${path} has no paths or component schemas`);
  return doc as OpenApiDocument;
}
