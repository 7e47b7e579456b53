/**
 * What every renderer receives: how to write image assets, what search should
 * index, and how to render nested messages (subagent transcripts reuse the
 * message renderer through `renderMessages`).
 */
import type { Message, Turn } from '../transcript/types.js';
import type { SafeHtml } from './sanitize.js';

export interface RenderContext {
  /**
   * Writes an image (content-hashed by the caller) and returns its URL. It must
   * be a relative or root-relative URL: the sanitiser drops absolute image URLs.
   */
  emitAsset(bytes: Buffer, mediaType: string): string;
  /** Let search index tool output (default false: it is bulky and mostly noise). */
  indexToolOutput: boolean;
  /** Render thinking blocks (collapsed). Default true. */
  renderThinking: boolean;
  /** Let search index thinking. Default false. */
  indexThinking: boolean;
  /** Nesting depth: 0 for the session, 1 inside a subagent, and so on. */
  depth: number;
  /**
   * Turn number of a human prompt, for `data-prompt` and the `p-<N>` heading.
   * From `turns` when given (prompts outside them, e.g. in abandoned branches,
   * get none); otherwise numbered in the order this context first renders them.
   */
  promptNumber(messageUuid: string): number | undefined;
  /**
   * Renders nested messages (a subagent transcript) with this context's
   * settings one level deeper.
   */
  renderMessages(messages: Message[], options?: { answer?: string }): SafeHtml;
  /**
   * Inside a subagent transcript (`renderMessages` with `answer`): the agent's answer, which the
   * spawning call shows as its result. A message saying exactly this says so instead of repeating it.
   */
  answerShownBelow?: string;
  /**
   * Remembers a block shown for tool call `id` and returns the id of the call
   * that showed the very same long block earlier on this page, if any: a file
   * read three times is shown once, the repeats link to it. Optional, so a
   * hand-built context simply repeats everything.
   */
  shownBefore?(key: RepeatKey, id: string): string | undefined;
}

/**
 * What a tool call's block is drawn from, in two steps: `head` names the call
 * (its tool and its input), and only blocks of the same head can be the same
 * block; `full()` is all of it (the result too), or undefined for a block too
 * short to be worth a link. `full()` is asked for only when another block on
 * the page has the same head: the whole of every long output, serialised to
 * find the few that repeat, was 1.0 s of the generated 630 MB session's render.
 */
export interface RepeatKey {
  head: string;
  full(): string | undefined;
}

export interface RenderContextOptions {
  emitAsset: RenderContext['emitAsset'];
  indexToolOutput?: boolean;
  renderThinking?: boolean;
  indexThinking?: boolean;
  /**
   * @deprecated Ignored. There is no whole-message sanitiser pass any more: renderer
   * output is `SafeHtml` by construction and markdown is sanitised where it is made.
   */
  finalSanitize?: boolean;
  /** The session's turns: makes prompt numbers match `Turn.index` however the transcript is split up. */
  turns?: Turn[];
}

/** Lines above which content is collapsed behind a `<details>` summary. */
export const COLLAPSE_LINES = 30;
