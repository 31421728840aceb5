/**
 * The spec library's Node half: everything of ./index.ts, plus what needs Node: openapi.yaml read
 * from disk, answers judged as the contract tests judge them, and image bytes made for uploads.
 */
export * from './index.ts';
export { loadSpec, loadSpecCached } from './spec-file.ts';
export { AnswerContract, mediaTypeOf, PRISM_ERROR_TYPE, Recorder } from './answer-contract.ts';
export { makePng, PNG_SIGNATURE, SVG } from './images.ts';
