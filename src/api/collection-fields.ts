import type { CollectionName } from './collection-names';

/**
 * What a record of each collection is made of, as openapi.yaml says it (its `{Name}Input` schema and
 * the path's `x-max-records`): the admin screens build their forms from it. Written out here, for the
 * browser carries no YAML parser; collection-fields.test.ts derives the same from openapi.yaml, so
 * a change of the contract that is not made here fails the tests.
 */
export type FieldKind = 'text' | 'url' | 'number' | 'boolean' | 'choice' | 'datetime';

export interface RecordField {
  /** The property's name; a nested one is a path (`keys.auth`). */
  name: string;
  kind: FieldKind;
  required: boolean;
  /** null is a value of its own (an empty field sends null). */
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  /** The values a choice offers. */
  options?: readonly string[];
  /** The schema's description, shown as the field's hint. */
  description?: string;
}

export interface CollectionSchema {
  fields: readonly RecordField[];
  /** The most records the collection holds; a create beyond answers 422. */
  maxRecords?: number;
}

export const COLLECTION_SCHEMAS: Readonly<Record<CollectionName, CollectionSchema>> = {
  accounts: {
    maxRecords: 3,
    fields: [
      { name: 'name', kind: 'text', required: true, minLength: 1, maxLength: 80 },
      { name: 'currency', kind: 'text', required: true, pattern: '^[A-Z]{3}$', maxLength: 3, description: 'ISO 4217 code.' },
      { name: 'balance', kind: 'number', required: true, minimum: -1000000000, maximum: 1000000000 },
    ],
  },
  notifications: {
    maxRecords: 100,
    fields: [
      { name: 'title', kind: 'text', required: true, minLength: 1, maxLength: 120 },
      { name: 'body', kind: 'text', required: true, maxLength: 1000 },
      { name: 'level', kind: 'choice', required: true, options: ['info', 'success', 'warning', 'error'] },
      { name: 'read', kind: 'boolean', required: true },
      { name: 'createdAt', kind: 'datetime', required: true, maxLength: 64 },
    ],
  },
  subscription: {
    maxRecords: 100,
    fields: [
      { name: 'endpoint', kind: 'url', required: true, maxLength: 2048 },
      { name: 'expirationTime', kind: 'number', required: false, nullable: true },
      { name: 'keys.p256dh', kind: 'text', required: true, pattern: '^[A-Za-z0-9_=-]{1,200}$', maxLength: 200 },
      { name: 'keys.auth', kind: 'text', required: true, pattern: '^[A-Za-z0-9_=-]{1,100}$', maxLength: 100 },
    ],
  },
  symbols: {
    maxRecords: 3,
    fields: [
      { name: 'code', kind: 'text', required: true, pattern: '^[A-Z]{1,5}$', maxLength: 5, description: 'The ticker code.' },
      { name: 'entity', kind: 'text', required: true, minLength: 1, maxLength: 120, description: 'The entity the code stands for.' },
    ],
  },
};
