/**
 * `--persist FILE`: the mock's data kept in a file, rewritten whole after every change and before
 * that change is answered. The write is atomic: the data goes to a temporary file in the same
 * directory, which is flushed to the disk, renamed over the target and the directory flushed too.
 * A crash at any moment (even `kill -9`, even of the machine) leaves either the previous file or
 * the new one, never a torn one, and every change a client saw acknowledged is on the disk.
 */
import {
  chmodSync,
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  fsyncSync,
  lstatSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ConfigError } from '../mock-api/index.ts';

export interface FileStore {
  readonly path: string;
  /** The file's text, or null when there is no file yet. */
  read(): string | null;
  /** Replaces the file's content atomically and durably (see above). Throws on an I/O error. */
  write(text: string): void;
}

export function fileStore(file: string): FileStore {
  const path = resolve(file);
  const dir = dirname(path);
  // One temporary name per target: a write interrupted by a crash leaves at most this one behind,
  // and the next write starts it afresh.
  const temporary = join(dir, `.${basename(path)}.tmp`);
  if (!existsSync(dir)) throw new ConfigError(`${file}: the directory ${dir} does not exist`);
  rmSync(temporary, { force: true });
  // A file an older run (or another tool) left readable by others is the owner's alone from the
  // start, not only from the first change. A symbolic link is left as it is: its mode is not its own.
  if (existsSync(path) && !lstatSync(path).isSymbolicLink()) chmodSync(path, 0o600);

  return {
    path,
    read() {
      try {
        return readFileSync(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw new ConfigError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
      }
    },
    write(text) {
      // The members' e-mails and avatars: readable by the user who runs the mock only. The name is
      // cleared and the file made new (O_EXCL), never opened through a link (O_NOFOLLOW): a link
      // planted under the temporary name would otherwise have the data written where it points.
      rmSync(temporary, { force: true });
      const fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      try {
        fchmodSync(fd, 0o600);
        writeFileSync(fd, text);
        // Stryker disable next-line CallExpression: the flush only matters to a crash of the machine, which no test can stage
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, path);
      // The rename is only durable once the directory entry is.
      const directory = openSync(dir, 'r');
      // Stryker disable next-line BlockStatement: emptied, the block only leaves out the flush below, which only a crash of the machine can tell
      try {
        // Stryker disable next-line CallExpression: as above, only a crash of the machine tells a flushed directory from one that is not
        fsyncSync(directory);
      } finally {
        closeSync(directory);
      }
    },
  };
}
