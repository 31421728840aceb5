import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { asOpenApiDocument, SpecError, type OpenApiDocument } from './openapi/index.ts';

export const SPEC_PATH = fileURLToPath(new URL('../openapi.yaml', import.meta.url));

/**
 * openapi.yaml (or another OpenAPI file), parsed. A file that cannot be read or parsed, or is no
 * OpenAPI document, throws a SpecError with a one-line reason.
 */
export function loadSpec(path = SPEC_PATH): OpenApiDocument {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SpecError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new SpecError(`${path} is not valid YAML: ${message}`);
  }
  return asOpenApiDocument(parsed, path);
}
