import { randomBytes } from 'node:crypto';
import { CarrierSecret } from '../../../src/carriers/carrier-secret';
import { summarise } from '../../../src/carriers/carrier-status-store';
import { loadConfig } from '../../../src/config/app-config';

describe(CarrierSecret.name, () => {
  const hex = randomBytes(32).toString('hex');

  it('opens what it sealed, under the same key given as hex or base64', () => {
    const sealed = CarrierSecret.fromKeyText(hex).seal('pässword-1');
    expect(CarrierSecret.fromKeyText(hex).open(sealed)).toBe('pässword-1');
    expect(CarrierSecret.fromKeyText(Buffer.from(hex, 'hex').toString('base64')).open(sealed)).toBe('pässword-1');
  });

  it('seals one password differently each time and never shows it', () => {
    const box = CarrierSecret.fromKeyText(hex);
    const a = box.seal('secret');
    const b = box.seal('secret');
    expect(a.equals(b)).toBe(false);
    expect(a.includes(Buffer.from('secret'))).toBe(false);
  });

  it('refuses another key and an altered value', () => {
    const sealed = CarrierSecret.fromKeyText(hex).seal('secret');
    expect(() => CarrierSecret.fromKeyText(randomBytes(32).toString('hex')).open(sealed)).toThrow();
    const altered = Buffer.from(sealed);
    altered[altered.length - 1] ^= 1;
    expect(() => CarrierSecret.fromKeyText(hex).open(altered)).toThrow();
  });

  it('with a previous key (a rotation), seals under the current key and opens what either sealed', () => {
    const previous = randomBytes(32).toString('base64');
    const both = CarrierSecret.fromKeyText(hex, previous);
    const sealedBefore = CarrierSecret.fromKeyText(previous).seal('old-sealed');
    expect(both.open(sealedBefore)).toBe('old-sealed');
    expect(both.open(CarrierSecret.fromKeyText(hex).seal('new-sealed'))).toBe('new-sealed');
    const sealed = both.seal('secret');
    expect(CarrierSecret.fromKeyText(hex).open(sealed)).toBe('secret');
    expect(CarrierSecret.fromKeyText(previous).opens(sealed)).toBe(false);
    expect(CarrierSecret.fromKeyText(hex).opens(sealedBefore)).toBe(false);
  });

  it('with a previous key, still refuses a value sealed under neither, or altered', () => {
    const both = CarrierSecret.fromKeyText(hex, randomBytes(32).toString('hex'));
    const stranger = CarrierSecret.fromKeyText(randomBytes(32).toString('hex')).seal('secret');
    expect(() => both.open(stranger)).toThrow();
    expect(both.opens(stranger)).toBe(false);
    const altered = both.seal('secret');
    altered[20] ^= 1;
    expect(both.opens(altered)).toBe(false);
  });
});

describe('CARRIER_SECRET_KEY and CARRIER_RELOAD_MS', () => {
  it('accept 32 bytes as 64 hex digits or base64, and name anything else', () => {
    expect(loadConfig({ CARRIER_SECRET_KEY: 'ab'.repeat(32) }).carrierSecretKey).toBe('ab'.repeat(32));
    const b64 = randomBytes(32).toString('base64');
    expect(loadConfig({ CARRIER_SECRET_KEY: b64 }).carrierSecretKey).toBe(b64);
    expect(() => loadConfig({ CARRIER_SECRET_KEY: 'short' })).toThrow('CARRIER_SECRET_KEY=(hidden) must be 32 bytes as 64 hex digits or 44 characters of base64');
    expect(loadConfig({}).carrierReloadMs).toBe(2000);
  });

  it('accept CARRIER_SECRET_KEY_PREVIOUS in the same form, hidden when wrong, and only beside CARRIER_SECRET_KEY', () => {
    const b64 = randomBytes(32).toString('base64');
    expect(loadConfig({ CARRIER_SECRET_KEY: 'ab'.repeat(32), CARRIER_SECRET_KEY_PREVIOUS: b64 }).carrierSecretKeyPrevious).toBe(b64);
    expect(loadConfig({ CARRIER_SECRET_KEY: 'ab'.repeat(32) }).carrierSecretKeyPrevious).toBeUndefined();
    const bad = () => loadConfig({ CARRIER_SECRET_KEY: 'ab'.repeat(32), CARRIER_SECRET_KEY_PREVIOUS: 'short-but-secret' });
    expect(bad).toThrow('CARRIER_SECRET_KEY_PREVIOUS=(hidden) must be 32 bytes as 64 hex digits or 44 characters of base64');
    expect(bad).not.toThrow(/short-but-secret/);
    expect(() => loadConfig({ CARRIER_SECRET_KEY_PREVIOUS: b64 })).toThrow('CARRIER_SECRET_KEY_PREVIOUS is set without CARRIER_SECRET_KEY');
    expect(() => loadConfig({ CARRIER_RELOAD_MS: '10' })).toThrow('CARRIER_RELOAD_MS="10" must not be less than 100');
  });
});

describe(summarise.name, () => {
  it('sums each carrier over the fresh workers: binds, window use, rate, error share', () => {
    const carrier = {
      id: 1,
      name: 'alpha',
      state: 'up' as const,
      reason: null,
      bindsUp: 2,
      bindsConfigured: 2,
      inFlight: 10,
      windowSize: 100,
      submits: 200,
      answers: 100,
      errors: 5,
      intervalMs: 2000,
    };
    const out = summarise([
      { worker: 'a', at: 0, waiting: { messages: 0, parts: 0 }, carriers: [carrier] },
      { worker: 'b', at: 0, waiting: { messages: 3, parts: 4 }, carriers: [{ ...carrier, bindsUp: 1, inFlight: 30, errors: 15 }] },
    ]);
    expect(out).toEqual({
      carriers: [{ carrier: 'alpha', id: 1, workers: 2, state: 'up', binds: '3/4 up', window_use: '40/200', submits_per_second: 200, error_share: 0.1 }],
      waiting: { messages: 3, parts: 4 },
    });
  });
});
