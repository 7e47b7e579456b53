/**
 * Which grammar a piece of code gets: fence labels and their aliases, file
 * names and extensions, mapped to shiki language ids. No highlighter is needed
 * here, only shiki's list of bundled grammars.
 */
import { bundledLanguages } from 'shiki';

/**
 * Grammars that colour embedded code with whatever other grammars happen to be
 * loaded (markdown fences name any of 57 languages). Their output would depend on
 * what the process highlighted before, so builds would not be reproducible; they
 * are shown as plain text instead.
 */
export const PLAIN_LANGS: ReadonlySet<string> = new Set(['markdown', 'mdx']);

/** The shiki id for a fence label or alias, or undefined when shiki has no such grammar. */
export function resolveLanguage(lang: string | undefined): string | undefined {
  if (!lang) return undefined;
  const l = lang.trim().toLowerCase();
  if (!l) return undefined;
  const mapped = LANG_ALIASES[l] ?? l;
  if (mapped === 'text' || mapped === 'plaintext' || mapped === 'txt') return undefined;
  if (mapped === 'ansi') return 'ansi';
  if (PLAIN_LANGS.has(mapped)) return undefined;
  return Object.prototype.hasOwnProperty.call(bundledLanguages, mapped) ? mapped : undefined;
}

/** Fence labels and aliases shiki does not know under that name. */
const LANG_ALIASES: Record<string, string> = {
  sh: 'shellscript',
  shell: 'shellscript',
  bash: 'shellscript',
  zsh: 'shellscript',
  console: 'shellscript',
  'shell-session': 'shellscript',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  py: 'python',
  rb: 'ruby',
  yml: 'yaml',
  md: 'markdown',
  rs: 'rust',
  'c++': 'cpp',
  cs: 'csharp',
  kt: 'kotlin',
  golang: 'go',
  dockerfile: 'docker',
  patch: 'diff',
  jsonl: 'jsonl',
  ndjson: 'jsonl',
  plain: 'text',
  none: 'text',
  output: 'text',
  log: 'log',
};

/** File extension to shiki language id. Extensions that are already ids resolve on their own. */
const EXT_LANGS: Record<string, string> = {
  ts: 'typescript', mts: 'typescript', cts: 'typescript', tsx: 'tsx',
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'jsx',
  py: 'python', pyi: 'python', rb: 'ruby', rs: 'rust', go: 'go', java: 'java', kt: 'kotlin', kts: 'kotlin',
  swift: 'swift', c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hpp: 'cpp', hh: 'cpp', cs: 'csharp',
  php: 'php', sh: 'shellscript', bash: 'shellscript', zsh: 'shellscript', fish: 'fish', ps1: 'powershell',
  json: 'json', jsonc: 'jsonc', json5: 'json5', jsonl: 'jsonl', ndjson: 'jsonl', ipynb: 'json',
  yml: 'yaml', yaml: 'yaml', toml: 'toml', ini: 'ini', cfg: 'ini', conf: 'ini', env: 'dotenv',
  md: 'markdown', mdx: 'mdx', markdown: 'markdown', rst: 'rst', tex: 'latex',
  html: 'html', htm: 'html', xml: 'xml', svg: 'xml', plist: 'xml', css: 'css', scss: 'scss', sass: 'sass', less: 'less',
  vue: 'vue', svelte: 'svelte', astro: 'astro', sql: 'sql', graphql: 'graphql', gql: 'graphql', proto: 'proto',
  lua: 'lua', r: 'r', dart: 'dart', scala: 'scala', ex: 'elixir', exs: 'elixir', erl: 'erlang', hs: 'haskell',
  clj: 'clojure', ml: 'ocaml', nim: 'nim', zig: 'zig', pl: 'perl', tf: 'hcl', hcl: 'hcl', nix: 'nix',
  diff: 'diff', patch: 'diff', dockerfile: 'docker', makefile: 'make', mk: 'make', cmake: 'cmake',
  gradle: 'groovy', groovy: 'groovy', vim: 'viml', prisma: 'prisma', sol: 'solidity', csv: 'csv', tsv: 'tsv',
  txt: 'text', log: 'log', lock: 'text',
};

/** Whole file names that say their language. */
const NAME_LANGS: Record<string, string> = {
  dockerfile: 'docker',
  makefile: 'make',
  gnumakefile: 'make',
  'cmakelists.txt': 'cmake',
  '.bashrc': 'shellscript',
  '.zshrc': 'shellscript',
  '.profile': 'shellscript',
  '.bash_profile': 'shellscript',
  '.gitignore': 'text',
  '.env': 'dotenv',
  gemfile: 'ruby',
  rakefile: 'ruby',
  justfile: 'just',
};

/** Language for a file path, by name then extension; `text` when nothing matches. */
export function languageForPath(path: string | undefined): string {
  if (!path) return 'text';
  const base = path.split(/[\\/]/).pop()?.toLowerCase() ?? '';
  if (NAME_LANGS[base]) return NAME_LANGS[base];
  if (base.startsWith('dockerfile')) return 'docker';
  if (base.startsWith('.env')) return 'dotenv';
  const dot = base.lastIndexOf('.');
  if (dot === -1) return 'text';
  const ext = base.slice(dot + 1);
  const lang = EXT_LANGS[ext] ?? ext;
  return resolveLanguage(lang) ?? 'text';
}
