import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ALL_API_SCOPES, REQUIRED_SCOPE } from '../../../../src/common/auth/api-scopes';
import { IS_PUBLIC } from '../../../../src/common/auth/public.decorator';

const SRC = join(__dirname, '../../../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** Every route of every controller in src/ (any file that declares one), with its public flag and scope. */
function routes() {
  const out: Array<{ route: string; isPublic: boolean; scope: unknown }> = [];
  const files = sourceFiles(SRC).filter((f) => !f.includes('/smsc-sim/') && /@Controller\(|DashboardController\(|PublicPageController\(/.test(readFileSync(f, 'utf8')));
  for (const file of files) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loads each controller file to read its decorators
    for (const exported of Object.values(require(file) as Record<string, unknown>)) {
      if (typeof exported !== 'function' || Reflect.getMetadata(PATH_METADATA, exported) === undefined) continue;
      const controller = exported as { prototype: Record<string, unknown>; name: string };
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = controller.prototype[name];
        if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
        const read = (key: string) => Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, controller);
        out.push({ route: `${relative(SRC, file)} ${controller.name}.${name}`, isPublic: read(IS_PUBLIC) === true, scope: read(REQUIRED_SCOPE) });
      }
    }
  }
  return out;
}

describe('API key scopes of the routes', () => {
  const all = routes();

  it('finds the API and the page controllers', () => {
    expect(all.filter((r) => !r.isPublic).length).toBeGreaterThanOrEqual(45);
    expect(all.filter((r) => r.isPublic).length).toBeGreaterThan(50);
    expect(all.some((r) => r.route.includes('MessagesController.send'))).toBe(true);
  });

  it('gives every authenticated route exactly one known scope, so a new route cannot go without one', () => {
    const missing = all.filter((r) => !r.isPublic && !ALL_API_SCOPES.includes(r.scope as never)).map((r) => r.route);
    expect(missing).toEqual([]);
  });

  it('maps the main operations to the documented scopes', () => {
    const scopeOf = (suffix: string) => all.find((r) => r.route.endsWith(suffix))?.scope;
    const expected: Array<[string, string]> = [
      ['MessagesController.send', 'messages:send'],
      ['MessagesController.query', 'messages:read'],
      ['MessagesController.cancel', 'messages:send'],
      ['SimpleSendController.send', 'messages:send'],
      ['ListSendController.send', 'messages:send'],
      ['InboundController.page', 'messages:read'],
      ['InboundController.simulate', 'messages:send'],
      ['ContactsController.list', 'contacts'],
      ['ListsController.create', 'contacts'],
      ['SendersController.register', 'senders'],
      ['WebhooksController.update', 'webhooks'],
      ['AccountController.show', 'account'],
      ['CreditPurchasesController.buy', 'purchases'],
      ['NumberPurchasesController.buy', 'purchases'],
    ];
    expect(expected.map(([route]) => [route, scopeOf(route)])).toEqual(expected);
  });
});
