/**
 * The properties every answer to a generated request must have, through Prism's validating proxy or
 * straight from the mock: the judge of contract-tests/generated-input.test.ts.
 */
import { isRecord, type OperationSpec } from '../../openapi-kit/index.ts';
import { mediaTypeOf, PRISM_ERROR_TYPE, type Answer, type AnswerContract } from '../../openapi-kit/node.ts';
import type { GeneratedRequest, Built, Verdict } from '../../verify/index.ts';

/** Prism's own answers that reject a request before it is forwarded: fine for invalid input. */
const PRISM_REQUEST_REJECTIONS = new Set([
  'UNPROCESSABLE_ENTITY',
  'NO_PATH_MATCHED_ERROR',
  'NO_METHOD_MATCHED_ERROR',
  'INVALID_CONTENT_TYPE',
  'NOT_ACCEPTABLE',
  'UNAUTHORIZED',
]);

export interface Outcome {
  /** 'prism': Prism answered itself (rejected the request, or reported a violation). */
  by: 'prism' | 'api';
  status: number;
  problems: string[];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The properties every answer must have:
 * - no contract violation: not Prism's VIOLATIONS problem nor an sl-violations header, and (for
 *   the API's own answers) a documented status, media type, body and headers (openapi-kit's
 *   judge, which also holds an Error body to its status and documented reason phrase);
 * - no 5xx the document does not give for the operation (an operation may document a 500);
 * - an error that reaches no operation still answers the Error body;
 * - the API does not accept (2xx) a request the contract forbids, and Prism does not reject one it allows.
 */
export function judgeAnswer(
  contract: AnswerContract,
  _op: OperationSpec,
  r: GeneratedRequest,
  built: Built,
  verdict: Verdict,
  answer: Answer,
): Outcome {
  const problems: string[] = [];
  const text = new TextDecoder().decode(answer.body);
  const media = mediaTypeOf(answer.headers);
  const parsed = media.endsWith('json') ? parseJson(text) : undefined;
  const prism = isRecord(parsed) && typeof parsed.type === 'string' && parsed.type.startsWith(PRISM_ERROR_TYPE) ? parsed : null;
  if (r.via === 'proxy' && prism) {
    const type = String(prism.type).slice(PRISM_ERROR_TYPE.length + 1);
    if (type === 'VIOLATIONS') {
      problems.push(
        `the upstream's answer breaks the contract (Prism ${answer.status} VIOLATIONS): ${JSON.stringify(prism.validation ?? prism.detail)}`,
      );
    } else if (answer.status >= 500 || !PRISM_REQUEST_REJECTIONS.has(type)) {
      problems.push(`Prism failed with ${answer.status} ${type}: ${String(prism.detail)}`);
    } else if (verdict.valid === true) {
      problems.push(
        `Prism rejected a request the contract allows: ${answer.status} ${type} ${JSON.stringify(prism.validation ?? prism.detail)}`,
      );
    }
    return { by: 'prism', status: answer.status, problems };
  }

  const matched = contract.match(r.method, built.contractPath);
  if (matched) problems.push(...contract.checkAnswer(matched, answer));
  else if (answer.headers.get('sl-violations')) problems.push(`Prism reports violations: ${answer.headers.get('sl-violations')}`);

  // For an operation, checkAnswer reports a 5xx the document does not give; a documented one is the document's word.
  if (answer.status >= 500 && !matched) problems.push(`a ${answer.status}: ${text.slice(0, 300)}`);

  if (answer.status >= 400 && !matched) {
    if (media !== 'application/json') problems.push(`an error answered as '${media}', not application/json: ${text.slice(0, 200)}`);
    else {
      const broken = contract.checkSchema('Error', parsed);
      if (broken.length > 0) problems.push(`an error body that is not the Error schema (${broken.join('; ')}): ${text.slice(0, 200)}`);
      else if (isRecord(parsed) && parsed.status !== answer.status)
        problems.push(`an error body with status ${JSON.stringify(parsed.status)} in a ${answer.status} answer`);
    }
  }
  if (verdict.valid === false && answer.status < 300)
    problems.push(`accepted (${answer.status}) a request the contract forbids: ${verdict.why.join('; ')}`);
  return { by: 'api', status: answer.status, problems };
}
