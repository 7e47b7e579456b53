/**
 * Deterministic ids: every uuid, message id, tool id and signature in the
 * samples comes from one seeded stream per session, so running the generator
 * again gives byte-identical files, and a change to one session leaves the
 * others alone. The order of calls is part of the output: adding a call
 * early in a session shifts every id after it.
 */

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export interface Ids {
  /** An RFC 4122 version 4 uuid. */
  uuid(): string;
  /** `msg_01…`, 28 characters like the API's. */
  messageId(): string;
  /** `toolu_01…`, 30 characters. */
  toolUseId(): string;
  /** `srvtoolu_01…`: server-side tool calls such as web search. */
  serverToolUseId(): string;
  /** `req_011C…`, 28 characters. */
  requestId(): string;
  /** An opaque thinking signature (base64, as the API sends it). */
  signature(): string;
  /** `length` lowercase hex digits (backup names, 2.0.x agent ids). */
  hex(length: number): string;
  /** An integer from `min` to `max`, both included (token counts, latencies). */
  int(min: number, max: number): number;
}

/** Ids from a mulberry32 stream: random-looking, but the same on every run. */
export function createIds(seed: number): Ids {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (alphabet: string, length: number): string =>
    Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
  const hex = (length: number): string => pick('0123456789abcdef', length);
  return {
    uuid: () => {
      // RFC 4122 version 4: the version nibble is 4 and the variant is 8, 9, a or b.
      const variant = '89ab'[Math.floor(next() * 4)];
      return `${hex(8)}-${hex(4)}-4${hex(3)}-${variant}${hex(3)}-${hex(12)}`;
    },
    messageId: () => `msg_01${pick(BASE62, 22)}`,
    toolUseId: () => `toolu_01${pick(BASE62, 22)}`,
    serverToolUseId: () => `srvtoolu_01${pick(BASE62, 22)}`,
    requestId: () => `req_011C${pick(BASE62, 20)}`,
    signature: () => `Eq${pick(BASE64, 4 * (60 + Math.floor(next() * 40)))}`,
    hex,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
  };
}
