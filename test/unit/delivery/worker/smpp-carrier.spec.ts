/** The SMPP carrier against the bundled SMSC simulator on loopback: binding, what goes on the wire, receipts, inbound. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeGsm7Unpacked } from '../../../../src/common/sms';
import type { DeliveryReceipt } from '../../../../src/delivery/worker/carriers/carrier';
import { SmppCarrier } from '../../../../src/delivery/worker/carriers/smpp/smpp-carrier';
import { message, PASSWORD, startHarness, SYSTEM_ID, waitFor } from './smpp-harness';
import type { Harness } from './smpp-harness';

/** Self-signed for localhost and 127.0.0.1; for these tests only. */
const TLS = {
  key: readFileSync(join(__dirname, 'fixtures', 'test-only-smsc.key.pem')),
  cert: readFileSync(join(__dirname, 'fixtures', 'test-only-smsc.cert.pem')),
};

/** UTF-16BE bytes, written out independently of the code under test. */
function utf16be(text: string): Buffer {
  const out = Buffer.alloc(text.length * 2);
  for (let i = 0; i < text.length; i++) out.writeUInt16BE(text.charCodeAt(i), i * 2);
  return out;
}

describe(SmppCarrier.name, () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  describe('binding', () => {
    it('binds every configured bind_transceiver with good credentials', async () => {
      h = await startHarness({ binds: 3 });
      await h.carrier.start();
      await waitFor('3 binds', () => h.carrier.state().bindsUp === 3);
      expect(h.simulator.counters.binds).toBe(3);
      expect(h.carrier.state()).toMatchObject({ kind: 'smpp', bindsConfigured: 3, bindsUp: 3, inFlight: 0 });
    });

    it('fails to start with ESME_RBINDFAIL when the password is wrong, and keeps no bind up', async () => {
      h = await startHarness({ binds: 2, password: `${PASSWORD}-wrong` });
      await expect(h.carrier.start()).rejects.toThrow('ESME_RBINDFAIL');
      expect(h.carrier.state().bindsUp).toBe(0);
      expect(h.simulator.counters.bindFailures).toBeGreaterThanOrEqual(2);
      expect(h.simulator.counters.binds).toBe(0);
    });

    it('binds over TLS when the SMSC certificate is trusted, and submits', async () => {
      h = await startHarness({ tls: true, tlsCa: TLS.cert }, { tls: TLS });
      const [result] = await h.carrier.submit([message()]);
      expect(result.parts[0].smscId).toBe(h.simulator.submits[0].smscId);
    });

    it('refuses a TLS SMSC whose certificate it cannot verify', async () => {
      h = await startHarness({ tls: true }, { tls: TLS });
      await expect(h.carrier.start()).rejects.toThrow('self-signed certificate');
      expect(h.simulator.counters.binds).toBe(0);
    });

    it('fails to start when the system_id is unknown', async () => {
      h = await startHarness({ systemId: `${SYSTEM_ID}x` });
      await expect(h.carrier.start()).rejects.toThrow('ESME_RBINDFAIL');
    });
  });

  describe('submit_sm', () => {
    it('sends a single-part GSM message as data_coding 0 with no UDH, the octets of encodeGsm7Unpacked', async () => {
      h = await startHarness();
      const text = 'Sale: €5 off [today] ~ {all} stores';
      const [result] = await h.carrier.submit([message({ text })]);
      const [record] = h.simulator.submits;
      expect(result.parts).toEqual([{ carrierId: 0, partNumber: 1, totalParts: 1, smscId: record.smscId }]);
      expect(record).toMatchObject({ dataCoding: 0, esmClass: 0, udh: null, registeredDelivery: 1, sourceAddr: 'MyBrand', sourceAddrTon: 5, text });
      expect(record.shortMessage).toEqual(encodeGsm7Unpacked(text));
    });

    it('sends a numeric sender with TON 1 (international)', async () => {
      h = await startHarness();
      await h.carrier.submit([message({ from: '61400111222' })]);
      expect(h.simulator.submits[0]).toMatchObject({ sourceAddr: '61400111222', sourceAddrTon: 1 });
    });

    it('splits a long GSM message into 3 parts sharing one reference in a 05 00 03 UDH with esm_class 0x40', async () => {
      h = await startHarness();
      const text = `${'a'.repeat(150)}€€${'b'.repeat(160)}`;
      const [result] = await h.carrier.submit([message({ text })]);
      const records = h.simulator.submits;
      expect(records).toHaveLength(3);
      const ref = records[0].udh?.[3];
      expect(records.map((r) => [...(r.udh ?? [])])).toEqual([1, 2, 3].map((seq) => [0x05, 0x00, 0x03, ref, 3, seq]));
      expect(records.map((r) => r.esmClass)).toEqual([0x40, 0x40, 0x40]);
      expect(records.map((r) => r.dataCoding)).toEqual([0, 0, 0]);
      // 150 a + one € fits 152 septets; the second € (2 septets) would make 154, so it starts part 2.
      expect(records[0].text).toBe(`${'a'.repeat(150)}€`);
      expect(records.map((r) => r.text).join('')).toBe(text);
      expect(records.every((r) => r.shortMessage.length <= 153)).toBe(true);
      expect(result.parts.map((p) => p.smscId)).toEqual(records.map((r) => r.smscId));
      expect(result.parts.map((p) => [p.partNumber, p.totalParts])).toEqual([
        [1, 3],
        [2, 3],
        [3, 3],
      ]);
    });

    it('sends UCS-2 parts as UTF-16BE with data_coding 8 and never splits an emoji', async () => {
      h = await startHarness();
      const text = `${'ж'.repeat(66)}😀${'я'.repeat(70)}`;
      const [result] = await h.carrier.submit([message({ text, encoding: 'ucs2' })]);
      const records = h.simulator.submits;
      expect(result.parts).toHaveLength(3);
      expect(records.map((r) => r.dataCoding)).toEqual([8, 8, 8]);
      expect(records[0].text).toBe('ж'.repeat(66));
      expect(records[1].text.startsWith('😀')).toBe(true);
      expect(records.map((r) => r.text).join('')).toBe(text);
      for (const record of records) expect(record.shortMessage).toEqual(utf16be(record.text));
      expect(new Set(records.map((r) => r.udh?.[3])).size).toBe(1);
    });

    it('gives each message its own concatenation reference', async () => {
      h = await startHarness();
      await h.carrier.submit([message({ text: 'x'.repeat(200) }), message({ text: 'y'.repeat(200) })]);
      const refs = new Set(h.simulator.submits.map((r) => r.udh?.[3]));
      expect(refs.size).toBe(2);
    });

    it('fails a part permanently on a status other than throttling, naming the status', async () => {
      h = await startHarness();
      h.simulator.failNext(1, 0x0b);
      const [rejected, accepted] = await h.carrier.submit([message(), message()]);
      expect(rejected.parts).toEqual([
        { partNumber: 1, totalParts: 1, smscId: null, error: 'submit_sm rejected: ESME_RINVDSTADR (0x0000000B)', carrierId: 0, errorCode: 0x0b, outcome: 'permanent' },
      ]);
      expect(accepted.parts[0].smscId).toEqual(expect.any(String));
      expect(h.simulator.submits).toHaveLength(2);
    });

    it('fails every part of a message whose text cannot be encoded, without sending it', async () => {
      h = await startHarness();
      const [result] = await h.carrier.submit([message({ text: 'smile 😀', encoding: 'gsm7' })]);
      expect(result.parts).toEqual([{ carrierId: 0, partNumber: 1, totalParts: 1, smscId: null, error: expect.stringContaining('cannot encode') }]);
      expect(h.simulator.submits).toHaveLength(0);
    });
  });

  describe('receipts', () => {
    it('passes DELIVRD receipts as delivered and fail-suffix ones as failed, with the submitted smscId', async () => {
      h = await startHarness();
      const [ok, bad] = await h.carrier.submit([message({ to: '61412345678' }), message({ to: '61412345000' })]);
      await waitFor('2 receipts', () => h.receipts.length === 2);
      const byId = new Map(h.receipts.map((r) => [r.smscId, r]));
      expect(byId.get(ok.parts[0].smscId as string)).toMatchObject({ state: 'delivered', stat: 'DELIVRD', err: '000' });
      expect(byId.get(bad.parts[0].smscId as string)).toMatchObject({ state: 'failed', stat: 'UNDELIV', err: '001' });
      expect(h.receipts.every((r) => r.doneAt instanceof Date && r.receivedAt instanceof Date)).toBe(true);
      await waitFor('receipts acknowledged', () => h.simulator.counters.receiptsAcked === 2);
    });

    it('names its own carrier id on every part, receipt and inbound message (an SMSC id is unique only on its carrier)', async () => {
      h = await startHarness({ id: 7, name: 'second' });
      expect([h.carrier.id, h.carrier.name]).toEqual([7, 'second']);
      const [result] = await h.carrier.submit([message({ text: 'x'.repeat(200) })]);
      expect(result.parts.map((p) => p.carrierId)).toEqual([7, 7]);
      await waitFor('2 receipts', () => h.receipts.length === 2);
      expect(h.receipts.map((r) => r.carrierId)).toEqual([7, 7]);
      await h.simulator.injectMo({ from: '61412345678', to: '61400000001', text: 'hi' });
      expect(h.inbound.map((m) => m.carrierId)).toEqual([7]);
    });

    it('passes a receipt that arrives before its submit_sm_resp, and the submit still resolves with the id', async () => {
      h = await startHarness({}, { receiptBeforeResp: true });
      const order: string[] = [];
      h.carrier.onReceipt((r) => void order.push(`receipt ${r.smscId}`));
      const [result] = await h.carrier.submit([message()]);
      order.push(`result ${result.parts[0].smscId}`);
      const id = h.simulator.submits[0].smscId;
      expect(order).toEqual([`receipt ${id}`, `result ${id}`]);
    });

    it('acknowledges a receipt only after its handler resolves; a throwing handler gets it redelivered', async () => {
      h = await startHarness();
      const seen: DeliveryReceipt[] = [];
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      h.carrier.onReceipt(async (r) => {
        seen.push(r);
        if (seen.length === 1) throw new Error('database down');
        await gate;
      });
      await h.carrier.submit([message()]);
      await waitFor('redelivery', () => seen.length === 2);
      expect(h.simulator.counters.deliversRefused).toBe(1);
      expect(h.simulator.counters.receiptsAcked).toBe(0);
      release();
      await waitFor('acknowledged', () => h.simulator.counters.receiptsAcked === 1);
      expect(seen.map((r) => r.smscId)).toEqual([h.simulator.submits[0].smscId, h.simulator.submits[0].smscId]);
    });
  });

  describe('inbound', () => {
    it('passes a mobile-originated GSM-7 message with its decoded text', async () => {
      h = await startHarness();
      await h.carrier.start();
      await h.simulator.injectMo({ from: '61412345678', to: '61400000001', text: 'Yes please! €10 @ [2pm]' });
      expect(h.inbound).toEqual([{ carrierId: 0, from: '61412345678', to: '61400000001', text: 'Yes please! €10 @ [2pm]', receivedAt: expect.any(Date) }]);
    });

    it('passes a UCS-2 message and one carried in message_payload', async () => {
      h = await startHarness();
      await h.carrier.start();
      await h.simulator.injectMo({ from: '61412345678', to: '61400000001', text: 'Да 👍' });
      await h.simulator.injectMo({ from: '61412345678', to: '61400000001', text: 'STOP', usePayload: true });
      expect(h.inbound.map((m) => m.text)).toEqual(['Да 👍', 'STOP']);
    });
  });
});
