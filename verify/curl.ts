/**
 * A request as a curl command line a person can paste into a POSIX shell. Bodies that cannot ride on
 * the command line (control characters, binary files, long runs such as a 100 KB padding) are
 * written by a `perl -e` one-liner into curl's standard input. Headers given with --header are
 * printed as `Name: $VERIFY_<NAME>` (--other-header's as `$VERIFY_OTHER_<NAME>`, --admin-header's as
 * `$VERIFY_ADMIN_<NAME>`), so a report never carries a secret.
 */
import type { Credentials, SentRequest } from './exchange.ts';

/** A string in single quotes, or in $'…' when it holds characters a terminal would swallow. */
export function shellQuote(s: string): string {
  if (s !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(s)) return s;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for.
  if (!/[\u0000-\u001f\u007f]/.test(s)) return `'${s.replaceAll("'", `'\\''`)}'`;
  let out = "$'";
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === "'" || ch === '\\') out += `\\${ch}`;
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}'`;
}

/**
 * The environment variable a redacted header's value is read from: `Authorization` →
 * `$VERIFY_AUTHORIZATION`; the other member's (--other-header) → `$VERIFY_OTHER_AUTHORIZATION`;
 * the admin's (--admin-header) → `$VERIFY_ADMIN_AUTHORIZATION`; the second refused one
 * (--refused-header) → `$VERIFY_REFUSED_2_AUTHORIZATION`.
 */
export const headerVariable = (name: string, whose: Credentials = 'member'): string => {
  const prefix =
    whose === 'other'
      ? 'OTHER_'
      : whose === 'admin'
        ? 'ADMIN_'
        : whose.startsWith('refused ')
          ? `REFUSED_${whose.slice('refused '.length)}_`
          : '';
  return `VERIFY_${prefix}${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
};

/** Text that can go on a command line as it is: no NUL, not too long. */
function printable(bytes: Uint8Array): string | null {
  if (bytes.byteLength > 2048 || bytes.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** A Perl expression that prints exactly these bytes: hex chunks, with runs of one byte as `"\xNN" x N`. */
export function perlBytes(bytes: Uint8Array): string {
  const parts: string[] = [];
  let hex = '';
  const flush = () => {
    if (hex) parts.push(`pack("H*","${hex}")`);
    hex = '';
  };
  for (let i = 0; i < bytes.length; ) {
    let run = 1;
    while (i + run < bytes.length && bytes[i + run] === bytes[i]) run++;
    if (run >= 16) {
      flush();
      parts.push(`"\\x${bytes[i]!.toString(16).padStart(2, '0')}" x ${run}`);
    } else {
      for (let k = 0; k < run; k++) hex += bytes[i]!.toString(16).padStart(2, '0');
    }
    i += run;
  }
  flush();
  return parts.length === 0 ? '""' : parts.join(', ');
}

/** The curl command line for a request. */
export function toCurl(request: SentRequest): string {
  const args: string[] = ['curl', '-sS', '-i'];
  if (request.method !== 'GET' || request.body.kind !== 'none') args.push('-X', shellQuote(request.method));
  let stdin: string | null = null;
  const body = request.body;
  const headers = request.headers.filter(([name]) => !(body.kind === 'form' && name.toLowerCase() === 'content-type'));
  for (const [name, value] of headers) args.push('-H', shellQuote(`${name}: ${value}`));
  for (const name of request.injected) {
    const wrap = request.wrapped?.name.toLowerCase() === name.toLowerCase() ? request.wrapped : undefined;
    const variable = headerVariable(name, request.credentials ?? 'member');
    // Quoted pieces side by side make one word: the text around the variable as it is, the variable
    // expanded; a gap goes between the variable's text before its first space and the text after it.
    const value = wrap?.gap === undefined ? `"\${${variable}}"` : `"\${${variable}%% *}"${shellQuote(wrap.gap)}"\${${variable}#* }"`;
    args.push(
      '-H',
      wrap ? `${shellQuote(`${name}: ${wrap.before}`)}${value}${wrap.after ? shellQuote(wrap.after) : ''}` : `"${name}: $${variable}"`,
    );
  }
  if (body.kind !== 'none' && body.chunked) args.push('-H', shellQuote('Transfer-Encoding: chunked'));
  if (body.kind === 'bytes') {
    const text = printable(body.bytes);
    if (text !== null) args.push('--data-binary', shellQuote(text));
    else {
      stdin = perlBytes(body.bytes);
      args.push('--data-binary', '@-');
    }
  } else if (body.kind === 'form') {
    for (const part of body.parts) {
      if ('value' in part) {
        const bytes = new TextEncoder().encode(part.value);
        if (printable(bytes) !== null || stdin !== null) args.push('--form-string', shellQuote(`${part.name}=${part.value}`));
        else {
          stdin = perlBytes(bytes);
          args.push('-F', shellQuote(`${part.name}=<-`));
        }
      } else {
        const options = `;filename=${part.filename.replaceAll('"', '')};type=${part.type || 'application/octet-stream'}`;
        if (stdin === null) {
          stdin = perlBytes(part.file);
          args.push('-F', shellQuote(`${part.name}=@-${options}`));
        } else {
          // curl reads one part from standard input: a second file goes as its text.
          args.push('-F', shellQuote(`${part.name}=${new TextDecoder().decode(part.file)}${options}`));
        }
      }
    }
  }
  args.push(shellQuote(request.url));
  const command = args.join(' ');
  return stdin === null ? command : `perl -e 'print ${stdin.replaceAll("'", `'\\''`)}' | ${command}`;
}
