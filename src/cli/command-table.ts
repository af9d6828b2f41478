import type { AnyCommand } from './command';

type CommandFile = () => Promise<{ COMMANDS: readonly AnyCommand[] }>;

// Each file is loaded only when one of its commands runs (or for the full --help), so a command pays
// for its own imports only.
const purchases: CommandFile = () => import('./commands/purchase.commands.js');
const senderIdentity: CommandFile = () => import('./commands/sender-identity.commands.js');
const credits: CommandFile = () => import('./commands/credits.commands.js');

/**
 * Where each command lives, by the group before the colon (`account:show` is in `account`). To add a
 * command, declare it with defineCommand in its group's file (`COMMANDS`); a new group is one line here.
 */
export const COMMAND_FILES: Readonly<Record<string, CommandFile>> = {
  db: () => import('./commands/db.commands.js'),
  account: () => import('./commands/account.commands.js'),
  user: () => import('./commands/user.commands.js'),
  key: () => import('./commands/key.commands.js'),
  sender: () => import('./commands/sender.commands.js'),
  credits,
  ledger: credits,
  contacts: () => import('./commands/contacts.commands.js'),
  compliance: () => import('./commands/compliance.commands.js'),
  registration: senderIdentity,
  numbers: senderIdentity,
  card: purchases,
  purchase: purchases,
  renewals: purchases,
  carrier: () => import('./commands/carrier.commands.js'),
  route: () => import('./commands/route.commands.js'),
};

/** The command of that name, loading only its group's file; undefined when there is none. */
export async function findCommand(name: string): Promise<AnyCommand | undefined> {
  const group = name.split(':')[0];
  const load = Object.hasOwn(COMMAND_FILES, group) ? COMMAND_FILES[group] : undefined;
  return load ? (await load()).COMMANDS.find((c) => c.name === name) : undefined;
}

/** Every command, in the table's order (loads every file). */
export async function allCommands(): Promise<AnyCommand[]> {
  const files = [...new Set(Object.values(COMMAND_FILES))];
  const loaded = await Promise.all(files.map((load) => load()));
  const seen = new Set<string>();
  return loaded.flatMap((file) => file.COMMANDS).filter((c) => !seen.has(c.name) && seen.add(c.name));
}
