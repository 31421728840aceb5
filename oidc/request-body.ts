/** The request bodies the provider reads itself, each with a small limit past which the connection is dropped. */
import type { IncomingMessage } from 'node:http';

/** A request body of at most 8 KB (a revocation's form: a token and a few names); past it the connection is dropped. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 8192) req.destroy(new Error('The body is too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A form body, at most 4 KB: the sign-in form has two short fields. */
export function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let text = '';
    // Stryker disable next-line StringLiteral: an empty encoding name is utf8 to Node as well
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
      // Stryker disable next-line StringLiteral: the connection is dropped; the reason is never shown to anyone
      if (text.length > 4096) req.destroy(new Error('The form is too large'));
    });
    req.on('end', () => resolve(new URLSearchParams(text)));
    // Stryker disable next-line StringLiteral: Node hands a destroyed request's error only to a listener; without one the read just never ends, and either way the connection is gone unanswered
    req.on('error', reject);
  });
}
