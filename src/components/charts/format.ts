/**
 * How chart values are written, by name (components take the name, not a
 * function, so a chart's props stay plain data).
 */
import { formatCount, formatDuration, formatTokens } from '../../lib/format';

export type ValueFormat = 'count' | 'tokens' | 'usd' | 'duration';

/** A value as the chart's table and labels show it. */
export function formatValue(value: number, format: ValueFormat): string {
  switch (format) {
    case 'tokens':
      return formatTokens(Math.round(value));
    case 'usd':
      return `$${value.toFixed(value >= 100 ? 0 : 2)}`;
    case 'duration':
      return formatDuration(value);
    default:
      return formatCount(value);
  }
}

/** A round axis maximum at or above `max` (steps of 1, 2, 2.5 or 5 times a power of ten; whole steps for counts), and its gridline step. */
export function niceScale(max: number, ticks = 4, integer = false): { top: number; step: number } {
  if (!(max > 0)) return integer ? { top: 1, step: 1 } : { top: 1, step: 0.25 };
  const raw = integer ? Math.max(1, max / ticks) : max / ticks;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * pow).filter((s) => !integer || Number.isInteger(s)).find((s) => s >= raw) ?? 10 * pow;
  return { top: step * Math.ceil(max / step), step };
}
