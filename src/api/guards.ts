import type { components } from './schema';
import { ApiError } from './errors';

type Schemas = components['schemas'];

const isText = (v: unknown): v is string => typeof v === 'string';
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What the screens read of each payload, checked at the edge: a body that breaks it becomes a
 * clear error instead of a crash deep in a component.
 */
const checks = {
  profile: (v: Record<string, unknown>) =>
    isText(v.id) &&
    isText(v.displayName) &&
    isText(v.username) &&
    isText(v.email) &&
    Array.isArray(v.interests) &&
    v.interests.every(isText) &&
    isText(v.createdAt) &&
    (v.bio === undefined || isText(v.bio)) &&
    (v.avatar === undefined || v.avatar === null || isText(v.avatar)),
  accounts: (v: Record<string, unknown>) => isText(v.id) && isText(v.name) && isText(v.currency) && typeof v.balance === 'number',
  notifications: (v: Record<string, unknown>) =>
    isText(v.id) &&
    isText(v.title) &&
    isText(v.level) &&
    isText(v.createdAt) &&
    (v.body === undefined || isText(v.body)) &&
    typeof v.read === 'boolean',
  subscription: (v: Record<string, unknown>) => isText(v.id) && isText(v.endpoint),
  symbols: (v: Record<string, unknown>) => isText(v.id) && isText(v.code) && isText(v.entity),
} as const;

export type CheckedKind = keyof typeof checks;

function unreadable(what: string): ApiError {
  return new ApiError(502, { status: 502, error: 'Bad Gateway', message: `The server sent ${what} this app cannot read` });
}

export function checkProfile(value: unknown): Schemas['Profile'] {
  if (!isRecord(value) || !checks.profile(value)) throw unreadable('a profile');
  return value as Schemas['Profile'];
}

export function checkItem<T>(kind: CheckedKind, value: unknown): T {
  if (!isRecord(value) || !checks[kind](value)) throw unreadable(`a ${kind} record`);
  return value as T;
}

export function checkList<T>(kind: CheckedKind, value: unknown): T[] {
  if (!Array.isArray(value)) throw unreadable(`a ${kind} list`);
  return value.map((item) => checkItem<T>(kind, item));
}
