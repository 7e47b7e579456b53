import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium, never a downloaded one; CHROMIUM_PATH overrides. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  if (!existsSync(chromiumPath)) throw new Error(`Chromium not found at ${chromiumPath}: apt-get install -y chromium, or set CHROMIUM_PATH`);
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Runs axe-core on the page (or the part `include` selects); returns the serious and critical violations. */
export async function seriousA11yViolations(page: Page, include?: string): Promise<Array<{ id: string; impact: string; nodes: string[] }>> {
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(async (include) => {
    // @ts-expect-error axe is injected above
    const r = await window.axe.run(include ? { include: [include] } : document, { resultTypes: ['violations'] });
    return r.violations.map((v: { id: string; impact: string; nodes: Array<{ target: string[] }> }) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    }));
  }, include);
  return result.filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical');
}
