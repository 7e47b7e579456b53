/**
 * How numbers, durations and times are written for people, in one place:
 * renderers, pages, components and scripts all format through these, so one
 * fact never reads two ways.
 */

/** A duration: `850 ms`, `12.3 s`, `4 min 7 s`, `3 h 5 min`; empty for a missing or invalid value. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.round(s % 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** ISO timestamp → `2026-01-21 15:30 UTC` (UTC keeps builds deterministic on every machine). */
export function formatTimestamp(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)} UTC`;
}

/** Compact token count: 1234 → `1.2k`. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

/** A count with thousands separators: 12345 → `12,345`. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** A size for people: `512 bytes`, `41 KB`. */
export function formatSize(bytes: number): string {
  return bytes < 1024 ? `${formatCount(bytes)} bytes` : `${formatCount(Math.max(1, Math.round(bytes / 1024)))} KB`;
}

/** A count and its noun, plural when it is not one: `1 prompt`, `3 prompts`, `2 matches` (with `plural`). */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : plural}`;
}
