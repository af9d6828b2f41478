import { DataSource } from 'typeorm';
import { AUSTRALIAN_TIME_ZONES, STATE_TIME_ZONES } from '../../src/common/time/australian-time-zones';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

/** A moment's wall-clock date, time and ISO weekday in a zone, by the platform's own zone data (Intl). */
function local(at: Date, zone: string): { date: string; time: string; isoDay: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-AU', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', weekday: 'short', hourCycle: 'h23' })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const isoDay = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(parts.weekday) + 1;
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}`, isoDay };
}

const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

describe('Quiet hours: /v1/quiet-hours, list sends and respect_quiet_hours', () => {
  let t: TestApp;
  let acct: TestAccount;
  let db: DataSource;

  beforeAll(async () => {
    t = await startTestApp({ appRole: 'api' });
    db = t.app.get(DataSource);
  });
  beforeEach(async () => {
    acct = await createAccount(t.app, { credits: 100, senders: ['Brand'] });
  });
  afterAll(() => t.close());

  const patch = (body: Record<string, unknown>) => t.api.patch('/v1/quiet-hours', { auth: acct.auth, body });
  const next = async (at: string, zone: string, from = 540, until = 1200, days = [1, 2, 3, 4, 5, 6, 7], skip: string[] = []) => {
    const [{ next: moment }] = await db.query(`SELECT quiet_hours_next($1::timestamptz, $2, $3, $4, $5::smallint[], $6::date[]) AS next`, [at, zone, from, until, days, skip]);
    return moment as Date | null;
  };

  describe('the setting', () => {
    it('is off by default, and saves a window, days, holidays and the zone field', async () => {
      expect((await t.api.get('/v1/quiet-hours', { auth: acct.auth })).body).toEqual({
        status: 'complete',
        enabled: false,
        allowed_from: '09:00',
        allowed_until: '20:00',
        days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'],
        skip_dates: [],
        zone_field: null,
      });
      const saved = await patch({
        enabled: true,
        allowed_from: '08:30',
        allowed_until: '21:00',
        days: ['sun', 'Mon'],
        skip_dates: ['2026-12-25', '2026-12-26'],
        zone_field: 'field_1',
      });
      expect(saved.status).toBe(200);
      const expected = {
        status: 'complete',
        enabled: true,
        allowed_from: '08:30',
        allowed_until: '21:00',
        days: ['mon', 'sun'],
        skip_dates: ['2026-12-25', '2026-12-26'],
        zone_field: 'field_1',
      };
      expect(saved.body).toEqual(expected);
      expect((await t.api.get('/v1/quiet-hours', { auth: acct.auth })).body).toEqual(expected);
    });

    it.each([
      [{ allowed_from: '9am' }, 'allowed_from must be a time HH:MM from 00:00 to 24:00'],
      [{ allowed_until: '24:01' }, 'allowed_until must be a time HH:MM from 00:00 to 24:00'],
      [{ allowed_from: '21:00' }, 'allowed_from must be earlier than allowed_until'],
      [{ days: [] }, 'days must list one or more of mon, tue, wed, thu, fri, sat, sun'],
      [{ days: ['funday'] }, 'days must list one or more of mon, tue, wed, thu, fri, sat, sun'],
      [{ skip_dates: ['2026-02-30'] }, 'skip_dates must be a list of at most 100 dates YYYY-MM-DD'],
      [{ zone_field: 'state' }, 'zone_field must be one of: first_name, last_name, company, other, field_1, field_2, field_3, field_4, field_5'],
      [{ enabled: 'yes' }, 'enabled must be a boolean'],
    ])('answers 400 for %j and changes nothing', async (body, error) => {
      const res = await patch(body);
      expect([res.status, res.body]).toEqual([400, { error }]);
      expect((await t.api.get('/v1/quiet-hours', { auth: acct.auth })).body.allowed_from).toBe('09:00');
    });
  });

  describe('the next allowed minute (quiet_hours_next)', () => {
    // Tuesday 2030-01-15 10:00 UTC is 21:00 in Sydney (after hours), 18:00 in Perth (inside), 19:30 in Darwin.
    it.each(AUSTRALIAN_TIME_ZONES)('in %s: a moment inside the window stays, one outside moves to the next opening at 09:00 local', async (zone) => {
      for (const at of ['2030-01-15T10:00:00Z', '2030-01-15T02:00:00Z', '2030-01-18T23:59:00Z', '2030-07-20T13:30:00Z']) {
        const moment = new Date(at);
        const answer = (await next(at, zone, 540, 1200, [1, 2, 3, 4, 5]))!;
        const was = local(moment, zone);
        const inside = was.isoDay <= 5 && was.time >= '09:00' && was.time < '20:00';
        if (inside) {
          expect([zone, at, answer.toISOString()]).toEqual([zone, at, moment.toISOString()]);
        } else {
          const now = local(answer, zone);
          expect([zone, at, now.time, now.isoDay <= 5]).toEqual([zone, at, '09:00', true]);
          expect(answer.getTime()).toBeGreaterThan(moment.getTime());
          // The first opening after the moment: no weekday 09:00 in between (at most 3 days later, over a weekend).
          expect(answer.getTime() - moment.getTime()).toBeLessThanOrEqual(3 * 86_400_000);
          const dayBefore = local(new Date(answer.getTime() - 86_400_000), zone);
          if (dayBefore.isoDay <= 5 && dayBefore.date >= was.date) expect([zone, at, dayBefore.date === was.date && was.time >= '20:00']).toEqual([zone, at, true]);
        }
      }
    });

    it('skips holidays in the recipient’s own calendar', async () => {
      // Christmas Day 2030 is a Wednesday; 07:00 local in Sydney waits for Boxing Day's 09:00 when both are skipped.
      const answer = await next('2030-12-24T20:00:00Z', 'Australia/Sydney', 540, 1200, [1, 2, 3, 4, 5, 6, 7], ['2030-12-25', '2030-12-26']);
      expect(local(answer!, 'Australia/Sydney')).toMatchObject({ date: '2030-12-27', time: '09:00' });
    });

    it('answers null when the window never opens within a year', async () => {
      const every = Array.from({ length: 400 }, (_, i) => addDays('2030-01-01', i));
      expect(await next('2030-01-01T00:00:00Z', 'Australia/Perth', 540, 1200, [1, 2, 3, 4, 5, 6, 7], every)).toBeNull();
    });

    it('keeps to local time across daylight saving: the spring-forward gap and the repeated autumn hour', async () => {
      // Sydney, Sunday 2026-10-04: clocks go 02:00 AEST -> 03:00 AEDT. An opening at 02:30 does not exist that
      // day; it reads as 02:30 standard time, 03:30 AEDT (16:30 UTC the day before).
      expect((await next('2026-10-03T15:00:00Z', 'Australia/Sydney', 150, 1200))!.toISOString()).toBe('2026-10-03T16:30:00.000Z');
      // The day before and after, 02:30 is an ordinary opening at UTC+10 and UTC+11.
      expect((await next('2026-10-02T15:00:00Z', 'Australia/Sydney', 150, 1200))!.toISOString()).toBe('2026-10-02T16:30:00.000Z');
      expect((await next('2026-10-04T14:00:00Z', 'Australia/Sydney', 150, 1200))!.toISOString()).toBe('2026-10-04T15:30:00.000Z');
      // Sunday 2026-04-05: 03:00 AEDT -> 02:00 AEST. 09:00 that morning is AEST (23:00 UTC the day before), not AEDT.
      expect((await next('2026-04-04T12:00:00Z', 'Australia/Sydney'))!.toISOString()).toBe('2026-04-04T23:00:00.000Z');
      // A window closing at 20:00 on the change day closes at 20:00 AEST (10:00 UTC).
      expect((await next('2026-04-05T09:59:00Z', 'Australia/Sydney'))!.toISOString()).toBe('2026-04-05T09:59:00.000Z');
      expect((await next('2026-04-05T10:00:00Z', 'Australia/Sydney'))!.toISOString()).toBe('2026-04-05T23:00:00.000Z');
      // Brisbane has no daylight saving: the same mornings are 23:00 UTC either side.
      expect((await next('2026-10-03T12:00:00Z', 'Australia/Brisbane'))!.toISOString()).toBe('2026-10-03T23:00:00.000Z');
      // Lord Howe moves by half an hour.
      expect(local((await next('2026-10-03T12:00:00Z', 'Australia/Lord_Howe'))!, 'Australia/Lord_Howe').time).toBe('09:00');
    });
  });

  describe('sends', () => {
    // Quiet today and tomorrow in every zone, so whatever the clock says now, a message held goes on the third day.
    const holdTwoDays = async () => {
      const today = local(new Date(), 'Australia/Perth').date;
      const skip = [-1, 0, 1, 2].map((n) => addDays(today, n));
      await patch({ enabled: true, days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], skip_dates: skip, zone_field: 'field_1' });
      return addDays(today, 3);
    };

    it('moves a list send’s messages to 09:00 on the next allowed day in each recipient’s zone (state code, zone name, else the account’s), keeping send_status', async () => {
      const list_id = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Everyone' } })).body.list_id;
      for (const [number, field_1] of [
        ['0412000201', 'WA'],
        ['0412000202', 'Australia/Adelaide'],
        ['0412000203', ''],
      ]) {
        await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id, number, field_1 } });
      }
      const day = await holdTwoDays();
      const res = await t.api.post('/v1/list-send', { auth: acct.auth, body: { list_id, sender: 'Brand', message: 'Spring sale' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ send_status: 'queued', total_recipients: 3 });
      const rows: Array<{ to_number: string; status: string; scheduled_for: Date }> = await db.query(
        `SELECT to_number, status, scheduled_for FROM messages WHERE account_id = $1 ORDER BY to_number`,
        [acct.accountId],
      );
      expect(rows.map((r) => [r.to_number, r.status])).toEqual([
        ['61412000201', 'scheduled'],
        ['61412000202', 'scheduled'],
        ['61412000203', 'scheduled'],
      ]);
      expect(local(rows[0].scheduled_for, 'Australia/Perth')).toMatchObject({ date: day, time: '09:00' });
      expect(local(rows[1].scheduled_for, 'Australia/Adelaide')).toMatchObject({ date: day, time: '09:00' });
      expect(local(rows[2].scheduled_for, 'Australia/Sydney')).toMatchObject({ date: day, time: '09:00' });

      // A held message is a scheduled message: cancelled with its refund.
      const [{ id }] = await db.query(`SELECT id FROM messages WHERE account_id = $1 AND to_number = '61412000201'`, [acct.accountId]);
      const before = (await t.api.get('/v1/account', { auth: acct.auth })).body.credit_balance;
      const cancelled = await t.api.delete('/v1/messages', { auth: acct.auth, body: { message_id: id } });
      expect(cancelled.status).toBe(200);
      expect((await t.api.get('/v1/account', { auth: acct.auth })).body.credit_balance).toBe(before + 1);
    });

    it('moves a list send to 09:00 local in every Australian zone, named by zone or by state code', async () => {
      const list_id = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Nationwide' } })).body.list_id;
      const byCode = Object.entries(STATE_TIME_ZONES);
      const recipients: Array<[string, string, string]> = [
        ...AUSTRALIAN_TIME_ZONES.map((zone, i): [string, string, string] => [`04123003${String(i).padStart(2, '0')}`, zone.toLowerCase(), zone]),
        ...byCode.map(([code, zone], i): [string, string, string] => [`04123004${String(i).padStart(2, '0')}`, ` ${code.toLowerCase()} `, zone]),
      ];
      for (const [number, field_1] of recipients) await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id, number, field_1 } });
      const day = await holdTwoDays();
      const res = await t.api.post('/v1/list-send', { auth: acct.auth, body: { list_id, sender: 'Brand', message: 'Sale' } });
      expect(res.body).toMatchObject({ send_status: 'queued', total_recipients: recipients.length });
      const rows: Array<{ to_number: string; status: string; scheduled_for: Date }> = await db.query(`SELECT to_number, status, scheduled_for FROM messages WHERE send_id = $1`, [
        res.body.send_id,
      ]);
      const held = new Map(rows.map((r) => [r.to_number, r]));
      for (const [number, written, zone] of recipients) {
        const row = held.get(`61${number.slice(1)}`)!;
        expect([written, row.status, local(row.scheduled_for, zone)]).toEqual([written, 'scheduled', expect.objectContaining({ date: day, time: '09:00' })]);
      }
      // Eucla (UTC+8:45) and Lord Howe (UTC+10:30/+11) are held to their own 09:00, not a neighbour's.
      const instant = (zone: string) => held.get(`61${recipients.find((r) => r[2] === zone)![0].slice(1)}`)!.scheduled_for.getTime();
      expect((instant('Australia/Perth') - instant('Australia/Eucla')) / 60_000).toBe(45);
    });

    it('moves POST /v1/messages only when it sets respect_quiet_hours', async () => {
      await t.api.post('/v1/contacts', { auth: acct.auth, body: { number: '0412000211', field_1: 'Australia/Darwin' } });
      const day = await holdTwoDays();
      const respectful = await t.api.post('/v1/messages', {
        auth: acct.auth,
        body: { respect_quiet_hours: true, messages: [{ to: '0412000211', message: 'Offer', sender: 'Brand' }] },
      });
      expect(respectful.status).toBe(200);
      const held = respectful.body.results[0];
      expect(held.status).toBe('success');
      expect(local(new Date(`${held.scheduled_for.replace(' ', 'T')}Z`), 'Australia/Darwin')).toMatchObject({ date: day, time: '09:00' });
      const transactional = await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to: '0412000211', message: 'Your code is 1234', sender: 'Brand' }] } });
      expect(transactional.body.results[0].scheduled_for).toBeNull();
    });

    it('leaves sends alone while quiet hours are off', async () => {
      const today = local(new Date(), 'Australia/Sydney').date;
      await patch({ enabled: false, skip_dates: [addDays(today, -1), today, addDays(today, 1)] });
      const res = await t.api.post('/v1/messages', { auth: acct.auth, body: { respect_quiet_hours: true, messages: [{ to: '0412000221', message: 'Hi', sender: 'Brand' }] } });
      expect(res.body.results[0].scheduled_for).toBeNull();
    });
  });
});
