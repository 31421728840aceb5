import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { asOpenApiDocument, SpecError, type OpenApiDocument } from './index.ts';

export const SPEC_PATH = fileURLToPath(new URL('../openapi.yaml', import.meta.url));

function readSpecText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new SpecError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

function parseSpecText(text: string, path: string): OpenApiDocument {
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new SpecError(`${path} is not valid YAML: ${message}`);
  }
  return asOpenApiDocument(parsed, path);
}

/**
 * openapi.yaml (or another OpenAPI file), parsed. A file that cannot be read or parsed, or is no
 * OpenAPI document, throws a SpecError with a one-line reason.
 */
export function loadSpec(path = SPEC_PATH): OpenApiDocument {
  return parseSpecText(readSpecText(path), path);
}

/**
 * The same, for a start of the mock server or of verify: parsing the YAML is the largest part of a
 * start, so the result is kept as JSON in the temporary directory, under the hash of the text it
 * came from, and read from there while the document is unchanged. A document JSON cannot hold as
 * it is (YAML's `.inf`, say) is parsed every time, so that every start reads the same document.
 */
export function loadSpecCached(path = SPEC_PATH): OpenApiDocument {
  const text = readSpecText(path);
  const cache = join(tmpdir(), `circle-openapi-${createHash('sha256').update(text).digest('hex').slice(0, 24)}.json`);
  try {
    // Stryker disable next-line StringLiteral: without an encoding the file comes as a Buffer, which JSON.parse reads as the same UTF-8 text
    return asOpenApiDocument(JSON.parse(readFileSync(cache, 'utf8')), path);
  } catch {
    // Not cached yet (or unreadable): parse, and keep it for the next start when the directory lets us.
  }
  const doc = parseSpecText(text, path);
  try {
    // YAML's core schema gives nothing JSON cannot hold but numbers that are not finite (`.inf`, `.nan`).
    let lossy = false;
    const json = JSON.stringify(doc, (_key, value: unknown) => {
      if (typeof value === 'number' && !Number.isFinite(value)) lossy = true;
      return value;
    });
    if (lossy) return doc;
    const temporary = `${cache}.${process.pid}.tmp`;
    writeFileSync(temporary, json);
    renameSync(temporary, cache);
  } catch {
    // A cache that cannot be written only costs the next start the parse.
  }
  return doc;
}
