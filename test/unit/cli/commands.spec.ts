import { parseCommandArgs } from '../../../src/cli/cli-args';
import type { AnyCommand } from '../../../src/cli/command';
import { COMMAND_FILES } from '../../../src/cli/command-table';
import * as account from '../../../src/cli/commands/account.commands';
import * as carrier from '../../../src/cli/commands/carrier.commands';
import * as compliance from '../../../src/cli/commands/compliance.commands';
import * as contacts from '../../../src/cli/commands/contacts.commands';
import * as credits from '../../../src/cli/commands/credits.commands';
import * as db from '../../../src/cli/commands/db.commands';
import * as key from '../../../src/cli/commands/key.commands';
import * as purchase from '../../../src/cli/commands/purchase.commands';
import * as sender from '../../../src/cli/commands/sender.commands';
import * as senderIdentity from '../../../src/cli/commands/sender-identity.commands';
import * as user from '../../../src/cli/commands/user.commands';
import { commandHelp, commandList, usageLine } from '../../../src/cli/help';

const FILES = [db, account, user, key, sender, credits, contacts, compliance, senderIdentity, purchase];
const ALL: AnyCommand[] = FILES.flatMap((f) => f.COMMANDS);

/** Splits an example as a shell would (double-quoted words kept whole). */
function words(example: string): string[] {
  return [...example.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
}

describe('operator commands', () => {
  it('have unique names whose group is in the command table', () => {
    expect(new Set(ALL.map((c) => c.name)).size).toBe(ALL.length);
    for (const c of ALL) expect([c.name, Object.hasOwn(COMMAND_FILES, c.name.split(':')[0])]).toEqual([c.name, true]);
  });

  it.each(ALL.map((c) => [c.name, c] as const))('%s has a summary, help for every flag and examples its own parser accepts', (_name, command) => {
    expect(command.summary.length).toBeGreaterThan(5);
    for (const option of Object.values(command.options)) expect(option.help.length).toBeGreaterThan(0);
    expect(command.examples.length).toBeGreaterThan(0);
    const hasRequired = Object.values(command.options).some((o) => o.required);
    for (const example of command.examples) {
      if (example === '' && hasRequired) throw new Error(`${command.name}: an empty example for a command with required flags`);
      expect(() => parseCommandArgs(words(example), command.options)).not.toThrow();
    }
  });
});

describe(commandHelp.name, () => {
  const show = account.COMMANDS.find((c) => c.name === 'account:show')!;

  it('shows the usage, every flag with its help and an example', () => {
    const text = commandHelp(show);
    expect(text).toContain('usage: npm run -s cli -- account:show --account ID');
    expect(text).toMatch(/--account ID\s+the account \(required\)/);
    expect(text).toContain('npm run -s cli -- account:show --account 1');
  });

  it('brackets optional flags and marks repeatable ones', () => {
    const create = account.COMMANDS.find((c) => c.name === 'account:create')!;
    expect(usageLine(create)).toBe('account:create --name NAME [--owner-email EMAIL] [--test] [--credits CREDITS] [--sender SENDER]... [--allow-duplicate-contacts]');
  });

  it('marks the flags carrier:add cannot do without as required (not bracketed)', () => {
    const add = carrier.COMMANDS.find((c) => c.name === 'carrier:add')!;
    expect(usageLine(add)).toMatch(/^carrier:add --name NAME --host HOST \[--port PORT\] \[--tls BOOL\] --system-id ID \[--password-stdin\]/);
    expect(commandHelp(add)).toMatch(/--host HOST\s+the SMSC's host name or address \(required\)/);
    expect(usageLine(carrier.COMMANDS.find((c) => c.name === 'carrier:update')!)).toContain('[--host HOST]');
  });

  it('lists every command with its summary', () => {
    const list = commandList(ALL);
    for (const c of ALL) expect(list).toContain(`${c.name} `);
  });
});
