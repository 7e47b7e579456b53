import { countHidden } from './messages.js';
import type { Entry, MarkerMessage, SessionFacts } from './types.js';

/**
 * What the metadata lines of a session file say. Claude Code re-appends
 * these lines whenever it rewrites its state, so for each one the last line
 * wins (pull requests: the last line per PR, in the order first seen).
 */
export interface SessionMetadata {
  customTitle?: string;
  aiTitle?: string;
  agentName?: string;
  pullRequests: SessionFacts['pullRequests'];
  worktree?: SessionFacts['worktree'];
  tags: string[];
  /** Mode and permission-mode changes, where they were written. */
  markers: MarkerMessage[];
  /** The last `cost-state` line: the session's cost as Claude Code counted it. */
  recordedCost?: SessionFacts['recordedCost'];
}

/** Metadata lines read for the header or the title; the others are accepted without a word. */
const READ_TYPES = new Set(['custom-title', 'ai-title', 'agent-name', 'pr-link', 'worktree-state', 'tag', 'mode', 'permission-mode', 'cost-state']);
/** Types that are records of the conversation, not metadata. */
const CONVERSATION = new Set(['user', 'assistant', 'system', 'attachment', 'progress', 'summary', 'file-history-snapshot', 'unknown']);
/** The mode a session starts in, so that only changes become markers. */
const INITIAL_MODE: Record<string, string> = { mode: 'normal', 'permission-mode': 'default' };

/**
 * Reads the metadata lines of the session file (not its sidechains), in file
 * order. Lines accepted without being shown are counted in `hidden`.
 */
export function readMetadata(entries: Entry[], hidden: Record<string, number>): SessionMetadata {
  const meta: SessionMetadata = { pullRequests: [], tags: [], markers: [] };
  const current: Record<string, string> = { ...INITIAL_MODE };
  for (const e of entries) {
    if (e.isSidechain || CONVERSATION.has(e.type)) continue;
    if (!READ_TYPES.has(e.type)) {
      countHidden(hidden, 'metadata lines');
      continue;
    }
    readLine(meta, e, current, hidden);
  }
  return meta;
}

function readLine(meta: SessionMetadata, e: Entry, current: Record<string, string>, hidden: Record<string, number>): void {
  const r = e.raw;
  switch (e.type) {
    case 'custom-title':
      meta.customTitle = str(r.customTitle ?? r.title) ?? meta.customTitle;
      break;
    case 'ai-title':
      meta.aiTitle = str(r.aiTitle ?? r.title) ?? meta.aiTitle;
      break;
    case 'agent-name':
      meta.agentName = str(r.agentName) ?? meta.agentName;
      break;
    case 'pr-link':
      addPullRequest(meta, r);
      break;
    case 'worktree-state':
      meta.worktree = worktreeOf(r.worktreeSession) ?? meta.worktree;
      break;
    case 'tag':
      readTag(meta, r.tag);
      break;
    case 'mode':
    case 'permission-mode':
      readMode(meta, e, current, hidden);
      break;
    case 'cost-state':
      meta.recordedCost = costState(r) ?? meta.recordedCost;
      break;
  }
}

/**
 * A `cost-state` line (2.1.2xx): Claude Code's own running total for the
 * session (`totalCostUSD`, the models in `modelUsage`, lines added and
 * removed). Undefined when it states no cost.
 */
function costState(r: Record<string, unknown>): SessionFacts['recordedCost'] | undefined {
  const cost = num(r.totalCostUSD) ?? num(r.costUSD) ?? num(r.totalCostUsd);
  if (cost === undefined || cost < 0) return undefined;
  const added = num(r.totalLinesAdded) ?? num(r.linesAdded);
  const removed = num(r.totalLinesRemoved) ?? num(r.linesRemoved);
  const usage = r.modelUsage && typeof r.modelUsage === 'object' && !Array.isArray(r.modelUsage) ? Object.keys(r.modelUsage).sort() : [];
  return { totalCostUSD: cost, ...(added !== undefined ? { linesAdded: added } : {}), ...(removed !== undefined ? { linesRemoved: removed } : {}), ...(usage.length ? { models: usage } : {}) };
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** A `mode` / `permission-mode` line: a marker when the mode changed, else a repeat, counted. */
function readMode(meta: SessionMetadata, e: Entry, current: Record<string, string>, hidden: Record<string, number>): void {
  const value = str(e.type === 'mode' ? e.raw.mode : e.raw.permissionMode);
  if (!value || value === current[e.type]) {
    countHidden(hidden, 'mode lines without a change');
    return;
  }
  current[e.type] = value;
  meta.markers.push({ kind: 'marker', uuid: e.uuid ?? `marker-${e.line}`, timestamp: e.timestamp, markerType: e.type, value, line: e.line });
}

function addPullRequest(meta: SessionMetadata, r: Record<string, unknown>): void {
  const url = str(r.prUrl ?? r.url);
  const n = typeof r.prNumber === 'number' ? r.prNumber : Number(/\/pull\/(\d+)/.exec(url ?? '')?.[1]);
  if (!url || !Number.isInteger(n)) return;
  const pr = { number: n, url, ...(str(r.prRepository) ? { repository: str(r.prRepository) } : {}) };
  const at = meta.pullRequests.findIndex((p) => p.number === n && (p.repository ?? '') === (pr.repository ?? ''));
  if (at === -1) meta.pullRequests.push(pr);
  else meta.pullRequests[at] = pr;
}

/**
 * A `worktreeSession` object: the worktree's path, branch and name, and the
 * folder the session was in before it entered (`preEnterOriginalCwd`, the
 * folder its project is named after; else `originalCwd`, where the worktree
 * was made from). A null one (the session left) keeps the worktree it was in.
 */
function worktreeOf(v: unknown): SessionFacts['worktree'] | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const w = v as Record<string, unknown>;
  const path = str(w.worktreePath);
  const branch = str(w.worktreeBranch);
  const name = str(w.worktreeName);
  const enteredFrom = str(w.preEnterOriginalCwd) ?? str(w.originalCwd);
  if (!path && !branch) return undefined;
  return { ...(path ? { path } : {}), ...(branch ? { branch } : {}), ...(name ? { name } : {}), ...(enteredFrom ? { enteredFrom } : {}) };
}

/** `tag` lines add a tag; an empty one clears them. Tags starting with `__` are Claude Code's own. */
function readTag(meta: SessionMetadata, v: unknown): void {
  if (v === '' || v === null) {
    meta.tags = [];
    return;
  }
  const tag = str(v);
  if (tag && !tag.startsWith('__') && !meta.tags.includes(tag)) meta.tags.push(tag);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v : undefined;
}
