import { UserLinksService } from '../../../src/users/user-links.service';
import { FakeClock } from '../fakes/fake-clock';

describe(UserLinksService.name, () => {
  function subject(known: boolean) {
    const calls: string[] = [];
    const started: Array<() => Promise<unknown>> = [];
    const user = { id: 7, email: 'pat@example.com.au' };
    const users = { findByEmail: async () => (calls.push('findByEmail'), known ? user : null) };
    const tokens = { countSince: async () => (calls.push('countSince'), 0), retireForUser: async () => calls.push('retire'), insert: async () => calls.push('insert') };
    const mail = { send: async () => (calls.push('mail'), true) };
    const uow = { run: async (work: (tx: { afterCommit: (f: () => unknown) => void }) => Promise<unknown>) => work({ afterCommit: (f) => void f() }) };
    const background = { run: (_name: string, work: () => Promise<unknown>) => void started.push(work) };
    const service = new UserLinksService(
      uow as never,
      tokens as never,
      users as never,
      {} as never,
      {} as never,
      mail as never,
      { dashboardUrl: 'https://dash.example' } as never,
      new FakeClock(new Date('2030-01-01T00:00:00Z')),
      background as never,
    );
    return { service, calls, started };
  }

  it.each([true, false])('answers a reset request (known email: %s) after the same work: no lookup, token or mail on the request path', async (known) => {
    const { service, calls, started } = subject(known);
    await service.requestReset('pat@example.com.au');
    expect([calls, started.length]).toEqual([[], 1]);
    await started[0]();
    expect(calls).toEqual(known ? ['findByEmail', 'countSince', 'retire', 'insert', 'mail'] : ['findByEmail']);
  });

  it('refuses a malformed email on the request path', async () => {
    const { service, started } = subject(true);
    await expect(service.requestReset('not an email')).rejects.toThrow();
    expect(started).toEqual([]);
  });
});
