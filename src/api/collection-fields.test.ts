// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { COLLECTION_NAMES } from './collection-names';
import { COLLECTION_SCHEMAS, type FieldKind, type RecordField } from './collection-fields';

/** openapi.yaml, the contract the descriptions are written from. */
const spec = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8')) as {
  paths: Record<string, { 'x-max-records'?: number }>;
  components: { schemas: Record<string, Schema> };
};

interface Schema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: string[];
  required?: string[];
  properties?: Record<string, Schema>;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  title?: string;
  description?: string;
  'x-pattern-message'?: string;
  'x-enum-titles'?: Record<string, string>;
  'x-translations'?: Record<
    string,
    Partial<Record<'title' | 'description' | 'x-pattern-message', string> & { 'x-enum-titles': Record<string, string> }>
  >;
}

/** A schema with its $ref followed; the keywords beside the $ref (a title, its translations) win. */
const resolve = (schema: Schema): Schema => {
  if (!schema.$ref) return schema;
  const { $ref, ...beside } = schema;
  return { ...resolve(spec.components.schemas[$ref.replace('#/components/schemas/', '')]!), ...beside };
};

function kindOf(schema: Schema): FieldKind {
  if (schema.enum) return 'choice';
  const type = [schema.type].flat().find((t) => t !== 'null');
  if (type === 'number' || type === 'integer') return 'number';
  if (type === 'boolean') return 'boolean';
  if (schema.format === 'uri') return 'url';
  if (schema.format === 'date-time') return 'datetime';
  return 'text';
}

/** The fields of an input schema as the form takes them: the id left out (the server makes one), objects flattened. */
function fieldsOf(schema: Schema, prefix = '', parentRequired = true): RecordField[] {
  return Object.entries(schema.properties ?? {}).flatMap(([name, raw]) => {
    if (!prefix && name === 'id') return [];
    const property = resolve(raw);
    const required = parentRequired && (schema.required ?? []).includes(name);
    if (property.properties) return fieldsOf(property, `${prefix}${name}.`, required);
    const field: RecordField = { name: `${prefix}${name}`, kind: kindOf(property), required };
    if ([property.type].flat().includes('null')) field.nullable = true;
    for (const key of ['minLength', 'maxLength', 'pattern', 'minimum', 'maximum'] as const) {
      if (property[key] !== undefined) Object.assign(field, { [key]: property[key] });
    }
    // The words a form shows, in English and in each language of x-translations.
    for (const [key, as] of [
      ['title', 'title'],
      ['description', 'description'],
      ['x-pattern-message', 'patternMessage'],
    ] as const) {
      const english = property[key];
      if (english === undefined) continue;
      const translated = Object.entries(property['x-translations'] ?? {}).flatMap(([lang, words]) =>
        words[key] === undefined ? [] : [[lang, words[key]]],
      );
      Object.assign(field, { [as]: { en: english, ...Object.fromEntries(translated) } });
    }
    if (property.enum) field.options = property.enum;
    // Each value's words (x-enum-titles), in English and in each language that names it.
    const titles = property['x-enum-titles'];
    if (titles)
      field.optionTitles = Object.fromEntries(
        Object.entries(titles).map(([value, english]) => [
          value,
          {
            en: english,
            ...Object.fromEntries(
              Object.entries(property['x-translations'] ?? {}).flatMap(([lang, words]) => {
                const word = words['x-enum-titles']?.[value];
                return word === undefined ? [] : [[lang, word]];
              }),
            ),
          },
        ]),
      );
    return [field];
  });
}

const INPUT_SCHEMA = {
  accounts: 'AccountInput',
  notifications: 'NotificationInput',
  subscription: 'SubscriptionInput',
  symbols: 'SymbolInput',
};

describe('the collections as the admin forms take them', () => {
  it('every field has a title in the five languages, a pattern its words, and each value of a choice its words', () => {
    for (const name of COLLECTION_NAMES)
      for (const field of COLLECTION_SCHEMAS[name].fields) {
        expect(Object.keys(field.title ?? {}).sort(), `${name}.${field.name}`).toEqual(['de', 'en', 'es', 'fr', 'zh-Hans']);
        if (field.pattern)
          expect(Object.keys(field.patternMessage ?? {}).sort(), `${name}.${field.name}`).toEqual(['de', 'en', 'es', 'fr', 'zh-Hans']);
        for (const value of field.options ?? [])
          expect(Object.keys(field.optionTitles?.[value] ?? {}).sort(), `${name}.${field.name}: ${value}`).toEqual([
            'de',
            'en',
            'es',
            'fr',
            'zh-Hans',
          ]);
      }
  });

  it.each(COLLECTION_NAMES)('%s: its fields and its most records are those of openapi.yaml', (name) => {
    const input = spec.components.schemas[INPUT_SCHEMA[name]]!;
    expect(COLLECTION_SCHEMAS[name]).toEqual({
      fields: fieldsOf(input),
      maxRecords: spec.paths[`/${name}`]?.['x-max-records'],
    });
  });
});
