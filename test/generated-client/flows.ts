/**
 * A client program as an API user writes it: types generated from /openapi.json by openapi-typescript,
 * calls made with openapi-fetch. test/e2e/generated-client.e2e-spec.ts generates ./schema.d.ts next to a
 * copy of this file, type-checks both with `tsc --strict` (so every field used here must be typed right:
 * ids as numbers, enums as unions, nullable as null) and runs the result against the test app.
 * Not part of the project's own compilation (./schema.d.ts exists only there).
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './schema.js';

type SendResult = components['schemas']['SendResultDto'];
type MessageStatus = components['schemas']['MessageLookupDto']['status'];

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`failed: ${what}`);
}

async function main(): Promise<void> {
  const [baseUrl, username, password] = process.argv.slice(2);
  const api = createClient<paths>({ baseUrl, headers: { Authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` } });
  const out: Record<string, unknown> = {};

  const account = await api.GET('/v1/account');
  const balance: number = account.data!.credit_balance;
  out.balance = balance;

  const contact = await api.POST('/v1/contacts', { body: { number: '0412 000 201', first_name: 'Ann' } });
  const contactId: number = contact.data!.contact_id;
  const found = await api.GET('/v1/contacts', { params: { query: { number: '0412000201', limit: 10 } } });
  check(found.data!.results[0].contact_id === contactId && found.data!.results[0].first_name === 'Ann', 'contact found by number');
  out.contactNumber = found.data!.results[0].number;

  const list = await api.POST('/v1/lists', { body: { name: 'Generated client' } });
  const listId: number = list.data!.list_id;
  const member = await api.POST('/v1/list-contacts', { body: { list_id: listId, contact_id: contactId } });
  check(member.data!.added, 'member added');

  const body = { messages: [{ to: '0412000201', message: 'Hi {first_name}', sender: 'Brand', custom_ref: 'generated-1' }] };
  const sent = await api.POST('/v1/messages', { params: { header: { 'Idempotency-Key': 'generated-client-1' } }, body });
  const result: SendResult = sent.data!;
  const messageId: string | undefined = result.results[0].message_id;
  out.sent = { status: result.results[0].status, message: result.results[0].message, sendId: result.send_id, cost: result.total_cost };
  const replay = await api.POST('/v1/messages', { params: { header: { 'Idempotency-Key': 'generated-client-1' } }, body });
  out.replayed = replay.response.headers.get('Idempotency-Replay') === 'true' && replay.data!.send_id === result.send_id;

  const lookup = await api.GET('/v1/messages', { params: { query: { message_id: messageId } } });
  const status: MessageStatus = lookup.data!.results[0].status;
  out.lookupStatus = status;
  const history = await api.GET('/v1/messages', { params: { query: { status: 'pending', from: '2000-01-01', limit: 5 } } });
  check('total' in history.data! && history.data.total >= 1, 'history has the message');

  const nextWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 19);
  const later = await api.POST('/v1/messages', { body: { messages: [{ to: '0412000202', message: 'Later', sender: 'Brand', scheduled_for: nextWeek }] } });
  check(later.data!.results[0].scheduled_for !== null, 'scheduled');
  const cancelled = await api.DELETE('/v1/messages', { body: { send_id: later.data!.send_id } });
  check(cancelled.data !== undefined && 'cancelled_count' in cancelled.data, 'cancelled by send_id');
  out.cancelled = cancelled.data;

  const listSend = await api.POST('/v1/list-send', { body: { list_id: listId, sender: 'Brand', message: 'To the list' } });
  const recipients: number = listSend.data!.total_recipients;
  out.listSend = { recipients, sendStatus: listSend.data!.send_status, scheduledFor: listSend.data!.scheduled_for };

  const simple = await api.GET('/simple/send-sms', { params: { query: { to: '0412000203', message: 'Simple', sender: 'Brand' } } });
  out.simple = simple.data!.results[0].status;

  // Bulk contacts as a job: stored at once, then run by a worker (this app runs none, so it stays queued).
  const imported = await api.POST('/v1/contact-imports', {
    body: { csv: 'Mobile,Name\n0412000204,Cat\nbad,Dog\n', mapping: { number: 'Mobile', first_name: 'Name' }, list_id: listId },
  });
  const importId: number = imported.data!.import_id;
  const importState = await api.GET('/v1/contact-imports', { params: { query: { import_id: importId } } });
  const finishedAt: string | null = importState.data!.finished_at;
  out.contactImport = { state: importState.data!.state, listId: importState.data!.list_id === listId, finishedAt };

  const refused = await api.POST('/v1/messages', { body: { messages: [] } });
  const error: string | undefined = refused.error?.error;
  out.refused = { status: refused.response.status, error };

  process.stdout.write(JSON.stringify(out));
}

main().catch((err: unknown) => {
  process.stderr.write(String(err instanceof Error ? err.stack : err));
  process.exit(1);
});
