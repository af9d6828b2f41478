import { heldNotice, noticeTone, NOTICES, withHeldNotice } from '../../../src/dashboard/notices';

describe('the notice of a send held by quiet hours', () => {
  const showTime = (at: Date) => at.toISOString();

  it('carries the time its earliest held message goes from the send page to the campaign page', () => {
    const until = new Date('2026-12-07T22:00:00.000Z');
    const location = withHeldNotice('/campaigns/42', until);
    expect(location).toBe(`/campaigns/42?notice=send_held&held_until=${until.getTime()}`);
    const query = Object.fromEntries(new URL(location, 'http://x').searchParams);
    expect(heldNotice(query, showTime)).toBe(
      'Held by quiet hours until 2026-12-07T22:00:00.000Z: messages outside the allowed hours go when sending is next allowed; until then you can cancel them here.',
    );
  });

  it('says it without a time when the URL carries none, or not a number', () => {
    expect(heldNotice({ notice: 'send_held' }, showTime)).toBe(NOTICES.send_held);
    expect(heldNotice({ notice: 'send_held', held_until: 'soon' }, showTime)).toBe(NOTICES.send_held);
    expect(heldNotice({ notice: 'send_held', held_until: ['1', '2'] }, showTime)).toBe(NOTICES.send_held);
  });
});

describe('the style of a notice', () => {
  it('is the warning one for a send held by quiet hours, and the success one otherwise', () => {
    expect(noticeTone('send_held')).toBe('warn');
    expect(noticeTone('send_queued')).toBeUndefined();
    expect(noticeTone('toString')).toBeUndefined();
    expect(noticeTone(['send_held'])).toBeUndefined();
    expect(noticeTone(undefined)).toBeUndefined();
  });
});
