// @vitest-environment node
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../mock-api/index.ts';
import { fileStore } from './persist.ts';

let dir: string;
let target: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'circle-persist-unit-'));
  target = join(dir, 'db.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const refusal = (act: () => unknown): Error => {
  try {
    act();
  } catch (error) {
    return error as Error;
  }
  throw new Error('nothing was refused');
};

describe('fileStore: the file --persist keeps', () => {
  it("is the owner's alone (0600) even when it or a temporary file left behind was readable by others", () => {
    writeFileSync(target, '{}', { mode: 0o644 });
    const store = fileStore(target);
    writeFileSync(join(dir, '.db.json.tmp'), 'torn', { mode: 0o666 });
    store.write('{"a": 1}');
    expect(statSync(target).mode & 0o777).toBe(0o600);
  });

  it('makes an existing file 0600 at start, before any change', () => {
    writeFileSync(target, '{}', { mode: 0o644 });
    fileStore(target);
    expect(statSync(target).mode & 0o777).toBe(0o600);
  });

  it('never writes through a link planted at its temporary name: the link is replaced, its target left alone', () => {
    const store = fileStore(target);
    const elsewhere = join(dir, 'elsewhere.txt');
    writeFileSync(elsewhere, 'untouched', { mode: 0o644 });
    symlinkSync(elsewhere, join(dir, '.db.json.tmp'));
    store.write('{"a": 1}');
    expect(readFileSync(elsewhere, 'utf8')).toBe('untouched');
    expect(statSync(elsewhere).mode & 0o777).toBe(0o644);
    expect(readFileSync(target, 'utf8')).toBe('{"a": 1}');
    expect(lstatSync(target).isSymbolicLink()).toBe(false);
  });

  it('reads null while there is no file, and then exactly the text last written', () => {
    const store = fileStore(target);
    expect(store.path).toBe(target);
    expect(store.read()).toBeNull();
    expect(existsSync(target)).toBe(false);
    store.write('{"accounts": []}\n');
    expect(readFileSync(target, 'utf8')).toBe('{"accounts": []}\n');
    expect(store.read()).toBe('{"accounts": []}\n');
    store.write('{}');
    expect(store.read()).toBe('{}');
    // The members' e-mails and avatars: the user who runs the mock alone may read them.
    expect(statSync(target).mode & 0o777).toBe(0o600);
    // Nothing is left beside the file once a write is done.
    expect(readdirSync(dir)).toEqual(['db.json']);
  });

  it('reads a file that was there before it was opened', () => {
    writeFileSync(target, 'kept');
    expect(fileStore(target).read()).toBe('kept');
  });

  it('refuses a file in a directory that does not exist, naming the file and the directory', () => {
    const missing = join(dir, 'nowhere', 'db.json');
    const error = refusal(() => fileStore(missing));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(`${missing}: the directory ${join(dir, 'nowhere')} does not exist`);
  });

  it('says why a file that exists cannot be read, instead of taking it for a missing one', () => {
    mkdirSync(target);
    const error = refusal(() => fileStore(target).read());
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(`${target}: cannot be read (EISDIR)`);
  });

  it('clears the temporary file an interrupted write left behind', () => {
    writeFileSync(join(dir, '.db.json.tmp'), '{"torn');
    writeFileSync(target, 'previous');
    const store = fileStore(target);
    expect(readdirSync(dir)).toEqual(['db.json']);
    expect(store.read()).toBe('previous');
  });

  it('leaves the previous file whole when a write fails before its rename', () => {
    const store = fileStore(target);
    store.write('previous');
    // The temporary file cannot be created: the write fails before the target is touched.
    mkdirSync(join(dir, '.db.json.tmp'));
    expect(() => store.write('next')).toThrow(/EISDIR/);
    expect(readFileSync(target, 'utf8')).toBe('previous');
    expect(store.read()).toBe('previous');
  });

  it.runIf(existsSync('/proc/self/fd'))('closes every file it opens, however many writes', () => {
    const store = fileStore(target);
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    for (let i = 0; i < 20; i++) store.write(`write ${i}`);
    expect(open()).toBe(before);
    expect(store.read()).toBe('write 19');
  });
});
