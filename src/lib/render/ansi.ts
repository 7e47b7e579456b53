/**
 * Terminal output: ANSI escape sequences found, cleaned up or removed. Colour
 * codes are kept for the highlighter's `ansi` grammar; everything else a page
 * cannot show is dropped.
 */

const ANSI_SGR = /\u001b\[[0-9;:]*m/;
// OSC (e.g. OSC 8 hyperlinks, window titles), ended by BEL or ST.
const OSC_RE = /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g;
// CSI sequences other than SGR (`m`): cursor moves, erase line, etc.
const CSI_NON_SGR_RE = /\u001b\[[0-?]*[ -/]*[@-ln-~]/g;
// Any other two-character escape.
const ESC_OTHER_RE = /\u001b(?![[\]])[@-Z\\-_]?/g;
const SGR_ALL_RE = /\u001b\[[0-9;:]*m/g;

/** Whether text carries ANSI colour codes worth rendering. */
export function hasAnsi(text: string): boolean {
  return ANSI_SGR.test(text);
}

/**
 * Drops the terminal sequences a page cannot show (links, cursor moves, titles)
 * and applies carriage returns the way a terminal would (progress bars keep only
 * their last state), keeping colour codes for the highlighter.
 */
export function cleanTerminal(text: string): string {
  const noOsc = text.replace(OSC_RE, '').replace(CSI_NON_SGR_RE, '').replace(ESC_OTHER_RE, '');
  return noOsc
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => {
      const cr = line.lastIndexOf('\r', line.length - 2);
      return (cr === -1 ? line : line.slice(cr + 1)).replace(/\r$/, '');
    })
    .join('\n');
}

/** Removes every escape sequence, leaving plain text. */
export function stripAnsi(text: string): string {
  return cleanTerminal(text).replace(SGR_ALL_RE, '').replace(/\u001b/g, '');
}
