import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import type { AppConfig } from '../../src/config/app-config';
import { inspectPage, launchChromium, watchForProblems } from './browser';
import { startTestApp, TestApp } from './test-app';

export interface BrowserSession {
  t: TestApp;
  page: Page;
}

/**
 * For a describe block: a test app listening on loopback and one headless Chromium page on it (JavaScript
 * on, strict CSP). Registers the block's hooks: every test ends with no page errors or failed requests,
 * and the block with no axe findings from `check`. `session` is filled in by the first beforeAll.
 */
export function browserSession(config: Partial<AppConfig> = {}) {
  const session = {} as BrowserSession;
  let browser: Browser | undefined;
  let problems: string[] = [];
  const accessibility: string[] = [];

  beforeAll(async () => {
    session.t = await startTestApp(config);
    await session.t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(session.t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
    session.page = await (await browser.newContext({ baseURL: base })).newPage();
    problems = watchForProblems(session.page);
  });
  afterAll(async () => {
    await browser?.close();
    await session.t?.close();
  });
  afterEach(() => {
    expect(problems).toEqual([]);
  });
  afterAll(() => {
    expect(accessibility).toEqual([]);
  });

  return {
    session,
    /** Axe on the page as it is, and a screenshot at phone and desktop sizes named `name`. */
    check: async (name: string) => void accessibility.push(...(await inspectPage(session.page, name))),
  };
}
