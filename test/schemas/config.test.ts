import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkIntegrationOptions, ConfigError, loadConfig } from '../../src/schemas/config.js';

/** The one way settings are read: defaults, the file, the integration's (or command line's) options, the environment. */
const root = mkdtempSync(join(tmpdir(), 'sp-config-unit-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
for (const dir of ['from-file', 'from-options', 'from-env', 'by-default']) mkdirSync(join(root, dir));
writeFileSync(join(root, 'sessionpress.config.json'), JSON.stringify({ source: 'from-file', title: 'File title', base: '/file' }));

describe('loadConfig', () => {
  it('lets the options win over the file, the environment over both, and the file over the defaults', () => {
    const fileOnly = loadConfig(root, {}, { defaults: { source: join(root, 'by-default'), base: '/host' } });
    expect([fileOnly.sourceDir, fileOnly.title, fileOnly.base]).toEqual([join(root, 'from-file'), 'File title', '/file']);
    const withOptions = loadConfig(root, {}, { inline: { source: 'from-options', prefix: 'transcripts' } });
    expect([withOptions.sourceDir, withOptions.title, withOptions.prefix]).toEqual([join(root, 'from-options'), 'File title', 'transcripts/']);
    const withEnv = loadConfig(root, { SESSIONPRESS_SOURCE: 'from-env' }, { inline: { source: 'from-options' } });
    expect(withEnv.sourceDir).toBe(join(root, 'from-env'));
  });

  it('takes a host site\'s own base and site when nothing else names them, and the root prefix by default', () => {
    const host = mkdtempSync(join(root, 'host-'));
    mkdirSync(join(host, 'sessions'));
    const c = loadConfig(host, {}, { inline: { source: 'sessions' }, defaults: { base: '/docs/', site: 'https://docs.example.test' } });
    expect([c.base, c.site, c.prefix]).toEqual(['/docs', 'https://docs.example.test', '']);
  });

  it('names the options as the origin of a bad value they hold', () => {
    expect(() => loadConfig(root, {}, { inline: { pageSize: 1 } })).toThrow(/the sessionpress\(\) options in the Astro config.*\n {2}- pageSize: /s);
  });

  it('needs no source folder for a preview of a built site', () => {
    expect(() => loadConfig(root, {}, { inline: { source: 'gone' } })).toThrow(ConfigError);
    expect(loadConfig(root, {}, { inline: { source: 'gone' }, needSource: false }).sourceDir).toBe(join(root, 'gone'));
  });
});

describe('checkIntegrationOptions', () => {
  it('accepts the config fields and the integration\'s own, and rejects a misspelt or bad one with one clear block', () => {
    expect(checkIntegrationOptions({ source: './sessions', prefix: '/sessions/', notes: 'content/notes', standalone: true }).standalone).toBe(true);
    expect(checkIntegrationOptions(undefined).standalone).toBe(false);
    const bad = () => checkIntegrationOptions({ sourse: './sessions', prefix: 'a//b' });
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow(/^Invalid Sessionpress configuration \(the sessionpress\(\) options in the Astro config\):\n {2}- /);
    expect(bad).toThrow(/sourse/);
    expect(bad).toThrow(/prefix: must be a path such as "\/sessions\/"/);
  });
});

describe('encrypt', () => {
  it('is off by default, on from the file, the integration\'s options or the command line, and only a boolean', () => {
    expect(loadConfig(root, {}).encrypt).toBe(false);
    expect(loadConfig(root, {}, { inline: { encrypt: true } }).encrypt).toBe(true);
    expect(checkIntegrationOptions({ encrypt: true, standalone: true }).encrypt).toBe(true);
    const file = join(root, 'encrypted.json');
    writeFileSync(file, JSON.stringify({ source: 'from-file', encrypt: true }));
    expect(loadConfig(root, { SESSIONPRESS_CONFIG: file }).encrypt).toBe(true);
    expect(() => checkIntegrationOptions({ encrypt: 'yes' })).toThrow(/encrypt: /);
  });
});
