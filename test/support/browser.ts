import { mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { Browser, chromium, Page } from 'playwright-core';

/** Debian's Chromium (`.ci/run` installs it when missing); never a downloaded browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = path.resolve(__dirname, '../../test-artifacts/screenshots');

/** `extraArgs`: e.g. `--host-resolver-rules=MAP shop.example.com.au 127.0.0.1`, so a public-looking name reaches a local peer. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run', ...extraArgs] });
}

// Globals of the page, used inside page.evaluate only: the project's tsconfig has no DOM library.
declare const document: any;

/**
 * Every field marked invalid (aria-invalid="true"): its id, and what its aria-describedby reads out: the text of
 * each id it names, joined by " | " (a missing id reads as `#id missing`).
 */
export function invalidFields(page: Page): Promise<Array<{ id: string; describedBy: string }>> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('[aria-invalid="true"]')).map((field: any) => ({
      id: String(field.id),
      describedBy: String(field.getAttribute('aria-describedby') ?? '')
        .split(/\s+/)
        .filter(Boolean)
        .map((id: string) => document.getElementById(id)?.textContent?.trim() ?? `#${id} missing`)
        .join(' | '),
    })),
  );
}

const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

/**
 * Saves the page as a phone and a desktop see it (test-artifacts/screenshots/, git-ignored) and checks it
 * with axe: no serious or critical accessibility violation. Answers the violations found, for the test to assert.
 */
export async function inspectPage(page: Page, name: string): Promise<string[]> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const original = page.viewportSize();
  for (const [kind, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${kind}.png`), fullPage: true });
  }
  if (original) await page.setViewportSize(original);
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${name}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Collects what the page reports as wrong: console errors (CSP refusals among them) and uncaught script errors. */
export function watchForProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    // An error page the test opened on purpose (404, 403) is reported as a failed load of the page itself.
    const expectedErrorPage = message.text().startsWith('Failed to load resource') && message.location().url === page.url();
    if (message.type() === 'error' && !expectedErrorPage) problems.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`script: ${error.message}`));
  return problems;
}
