/**
 * A test double of the mock's authentication for in-process, handler-level tests: the request's
 * `Authorization: Bearer test-<subject>` is that subject (with the roles the embedded provider
 * gives the member of that name: ada is the admin), anything else is refused as the real
 * check refuses it (401 with its challenge). Tests of the real server get real tokens from the
 * embedded provider instead (support/sign-in.ts).
 */
import { type Authenticate, unauthorized } from '../mock-api/index.ts';
import { ACCOUNTS } from '../oidc/index.ts';

const TEST_TOKEN = /^Bearer test-([A-Za-z0-9_-]+)$/;

export const testAuthenticate: Authenticate = async (request) => {
  const header = request.headers.get('authorization');
  if (header === null) throw unauthorized('Sign in: this operation needs a bearer access token');
  const subject = TEST_TOKEN.exec(header)?.[1];
  if (!subject) throw unauthorized('The access token is not one this server issued', 'invalid_token');
  // The roles the embedded provider gives the member of that name (ada is the admin); anyone else is a member.
  const roles = ACCOUNTS.find((account) => account.id === subject)?.roles ?? ['member'];
  return { subject, roles };
};

/** The Authorization header testAuthenticate reads as `subject`. */
export const bearerOf = (subject: string): { authorization: string } => ({ authorization: `Bearer test-${subject}` });
