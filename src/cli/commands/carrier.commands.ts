import { CarriersAdminService, type CarrierInput } from '../../carriers/carriers-admin.service';
import { CarriersModule } from '../../carriers/carriers.module';
import { checkAddressing, checkBoolean, checkCarrierName, checkHost, checkSystemId, checkWhole } from '../../carriers/carrier-settings';
import { UsageError } from '../cli-args';
import { defineCommand } from '../command';
import { asUsage, OLD_KEY_OPTIONS, PASSWORD_OPTIONS, readOldKey, readPassword } from './carrier-flags';
import { CARRIER_STATUS_COMMAND } from './carrier-status.command';

const NAME = { name: { type: 'string', value: 'NAME', required: true, help: 'the carrier' } } as const;

/** Connection flags shared by add and update; absent ones are left as they are (update) or defaulted (add). */
const CONNECTION = {
  host: { type: 'string', value: 'HOST', help: "the SMSC's host name or address" },
  port: { type: 'string', value: 'PORT', help: "the SMSC's port (add: 2775)" },
  tls: { type: 'string', value: 'BOOL', help: 'SMPP over TLS, certificate verified (add: false)' },
  'system-id': { type: 'string', value: 'ID', help: 'system_id of the bind' },
  ...PASSWORD_OPTIONS,
  binds: { type: 'string', value: 'N', help: 'binds kept open, 1-64 (add: 1)' },
  window: { type: 'string', value: 'N', help: 'unanswered submit_sm per bind, 1-1000 (add: 10)' },
  'tps-per-bind': { type: 'string', value: 'N', help: 'submissions a second per bind, 0 = uncapped (add: 0)' },
  'alpha-source': { type: 'string', value: 'TON/NPI', help: 'source addressing of Sender IDs (add: 5/0)' },
  'numeric-source': { type: 'string', value: 'TON/NPI', help: 'source addressing of numeric senders (add: 1/1)' },
} as const;

type ConnectionValues = { [K in keyof typeof CONNECTION]: K extends 'password-stdin' ? boolean : string | undefined };

function connectionChanges(v: ConnectionValues): Partial<CarrierInput> {
  const alpha = v['alpha-source'] === undefined ? undefined : checkAddressing(v['alpha-source'], 'alpha-source');
  const numeric = v['numeric-source'] === undefined ? undefined : checkAddressing(v['numeric-source'], 'numeric-source');
  return {
    host: v.host === undefined ? undefined : checkHost(v.host),
    port: v.port === undefined ? undefined : checkWhole(v.port, 'port', 1, 65535),
    tls: v.tls === undefined ? undefined : checkBoolean(v.tls, 'tls'),
    systemId: v['system-id'] === undefined ? undefined : checkSystemId(v['system-id']),
    binds: v.binds === undefined ? undefined : checkWhole(v.binds, 'binds', 1, 64),
    window: v.window === undefined ? undefined : checkWhole(v.window, 'window', 1, 1000),
    tpsPerBind: v['tps-per-bind'] === undefined ? undefined : checkWhole(v['tps-per-bind'], 'tps-per-bind', 0, 100_000),
    alphaTon: alpha?.ton,
    alphaNpi: alpha?.npi,
    numericTon: numeric?.ton,
    numericNpi: numeric?.npi,
  };
}

function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, value]) => value !== undefined)) as Partial<T>;
}

const RELOAD = 'Workers pick the change up within CARRIER_RELOAD_MS (no restart).';

export const COMMANDS = [
  defineCommand({
    name: 'carrier:add',
    summary: 'adds an SMSC connection (a carrier); workers bind to it without a restart',
    description: `The password is read from stdin (--password-stdin) or an environment variable (--password-env), never from a flag's value, and stored sealed with CARRIER_SECRET_KEY; it is never printed. ${RELOAD}`,
    options: {
      ...NAME,
      ...CONNECTION,
      host: { ...CONNECTION.host, required: true },
      'system-id': { ...CONNECTION['system-id'], required: true },
      disabled: { type: 'boolean', help: 'add it disabled (carrier:enable starts it)' },
    },
    examples: ['--name telstra --host smpp.example.net --system-id harbour --password-stdin --binds 2 --window 50 < password.txt'],
    modules: [CarriersModule],
    run: (app, v) =>
      asUsage(async () => {
        const name = checkCarrierName(v.name);
        const password = readPassword(v);
        if (password === undefined) throw new UsageError('the password is required: --password-stdin or --password-env VAR');
        const c = connectionChanges(v);
        const input: CarrierInput = {
          name,
          host: c.host!,
          port: c.port ?? 2775,
          tls: c.tls ?? false,
          systemId: c.systemId!,
          binds: c.binds ?? 1,
          window: c.window ?? 10,
          tpsPerBind: c.tpsPerBind ?? 0,
          alphaTon: c.alphaTon ?? 5,
          alphaNpi: c.alphaNpi ?? 0,
          numericTon: c.numericTon ?? 1,
          numericNpi: c.numericNpi ?? 1,
          enabled: !v.disabled,
        };
        return app.get(CarriersAdminService).add(input, password);
      }),
  }),

  defineCommand({
    name: 'carrier:list',
    summary: 'the carriers (passwords shown only as set)',
    options: {},
    examples: [''],
    modules: [CarriersModule],
    run: async (app) => ({ carriers: await app.get(CarriersAdminService).list() }),
  }),

  defineCommand({
    name: 'carrier:update',
    summary: "changes a carrier's settings; workers rebind it without a restart",
    description: `Only the flags given change. ${RELOAD} Its parts in flight are answered on the old binds (or fail over) before they close.`,
    options: { ...NAME, rename: { type: 'string', value: 'NAME', help: 'a new name' }, ...CONNECTION },
    examples: ['--name telstra --window 100 --tps-per-bind 50', '--name telstra --password-env NEW_SMPP_PASSWORD'],
    modules: [CarriersModule],
    run: (app, v) =>
      asUsage(async () => {
        const changes = defined({ ...connectionChanges(v), name: v.rename === undefined ? undefined : checkCarrierName(v.rename) });
        const password = readPassword(v);
        if (Object.keys(changes).length === 0 && password === undefined) throw new UsageError('nothing to change: give at least one setting');
        return app.get(CarriersAdminService).update(v.name, changes, password);
      }),
  }),

  defineCommand({
    name: 'carrier:enable',
    summary: 'enables a carrier: workers bind to it',
    options: NAME,
    examples: ['--name telstra'],
    modules: [CarriersModule],
    run: (app, v) => asUsage(() => app.get(CarriersAdminService).setEnabled(v.name, true)),
  }),

  defineCommand({
    name: 'carrier:disable',
    summary: 'disables a carrier: workers stop giving it parts, let those out be answered, and unbind',
    options: NAME,
    examples: ['--name telstra'],
    modules: [CarriersModule],
    run: (app, v) => asUsage(() => app.get(CarriersAdminService).setEnabled(v.name, false)),
  }),

  defineCommand({
    name: 'carrier:remove',
    summary: 'removes a carrier no route names (its id is never reused); workers drain it and unbind',
    options: NAME,
    examples: ['--name telstra'],
    modules: [CarriersModule],
    run: (app, v) => asUsage(() => app.get(CarriersAdminService).remove(v.name)),
  }),

  defineCommand({
    name: 'carrier:rekey',
    summary: 'reseals every stored carrier password under CARRIER_SECRET_KEY (key rotation); workers reload without a restart',
    description: `The old key is read from stdin (--old-key-stdin) or an environment variable (--old-key-env), never from a flag's value, and never printed. Every stored password is opened with it and sealed again under CARRIER_SECRET_KEY in one transaction; if the old key does not open one, nothing is written. Give the workers the new key as CARRIER_SECRET_KEY and the old one as CARRIER_SECRET_KEY_PREVIOUS first (docs/carriers.md). Prints how many passwords it resealed. ${RELOAD}`,
    options: OLD_KEY_OPTIONS,
    examples: ['--old-key-env OLD_CARRIER_SECRET_KEY', '--old-key-stdin < old-key.txt'],
    modules: [CarriersModule],
    run: (app, v) => asUsage(() => app.get(CarriersAdminService).rekey(readOldKey(v))),
  }),

  CARRIER_STATUS_COMMAND,
];
