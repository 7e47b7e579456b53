/**
 * Redaction: secrets, personal data and home paths out of session entries,
 * before anything else (model, renderer, store, index) sees them.
 */
export { createRedactor, walk } from './redactor.js';
export { scanText } from './scan.js';
export type { ScanFinding } from './scan.js';
export {
  COMMON_USERNAMES,
  isDistinctiveUsername,
  redactProjectFolder,
  usernamesFromCwds,
  usernamesFromFolder,
} from './usernames.js';
export type {
  ExtraPattern,
  RedactionFinding,
  RedactionOptions,
  RedactionReport,
  Redactor,
  SessionHints,
} from './types.js';
