import { STATUS } from '../../../src/smpp/commands';
import { concatenatedPartNumber, SimFaults } from '../../../src/smsc-sim/sim-faults';

function refusals(faults: SimFaults, submits: number): Record<string, number> {
  const counts: Record<string, number> = {};
  for (let i = 0; i < submits; i++) {
    const key = String(faults.nextSubmitRefusal() ?? 'ok');
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

describe(SimFaults.name, () => {
  it('accepts every submit when no fault is set', () => {
    expect(refusals(new SimFaults(), 50)).toEqual({ ok: 50 });
  });

  it('refuses exactly each share of submits, spread over them', () => {
    const faults = new SimFaults();
    faults.setSubmitError(STATUS.ESME_RTHROTTLED, 0.3);
    faults.setSubmitError(STATUS.ESME_RMSGQFUL, 0.1);
    faults.setSubmitError(STATUS.ESME_RSYSERR, 0.1);
    faults.setSubmitError(STATUS.ESME_RINVDSTADR, 0.05);
    expect(refusals(faults, 100)).toEqual({ ok: 45, [STATUS.ESME_RTHROTTLED]: 30, [STATUS.ESME_RMSGQFUL]: 10, [STATUS.ESME_RSYSERR]: 10, [STATUS.ESME_RINVDSTADR]: 5 });
    // Spread, not bunched: ten submits at 30% have three refused.
    faults.clear();
    faults.setSubmitError(STATUS.ESME_RTHROTTLED, 0.3);
    const run = Array.from({ length: 10 }, () => faults.nextSubmitRefusal());
    expect(run.filter((r) => r === STATUS.ESME_RTHROTTLED)).toHaveLength(3);
  });

  it('refuses every submit at share 1, and a share of 0 removes the status', () => {
    const faults = new SimFaults();
    faults.setSubmitError(STATUS.ESME_RSYSERR, 1);
    expect(refusals(faults, 5)).toEqual({ [STATUS.ESME_RSYSERR]: 5 });
    faults.setSubmitError(STATUS.ESME_RSYSERR, 0);
    expect(faults.settings().submitErrors).toEqual([]);
    expect(refusals(faults, 5)).toEqual({ ok: 5 });
  });

  it('answers queued refusals first, then the shares', () => {
    const faults = new SimFaults();
    faults.setSubmitError(STATUS.ESME_RTHROTTLED, 1);
    faults.queueRefusals(2, STATUS.ESME_RINVDSTADR);
    expect([faults.nextSubmitRefusal(), faults.nextSubmitRefusal(), faults.nextSubmitRefusal()]).toEqual([STATUS.ESME_RINVDSTADR, STATUS.ESME_RINVDSTADR, STATUS.ESME_RTHROTTLED]);
  });

  it('rejects shares adding up past 1, a zero status and a share outside 0..1', () => {
    const faults = new SimFaults();
    faults.setSubmitError(STATUS.ESME_RTHROTTLED, 0.6);
    expect(() => faults.setSubmitError(STATUS.ESME_RMSGQFUL, 0.5)).toThrow(RangeError);
    // Replacing a status's own share is not counted twice.
    faults.setSubmitError(STATUS.ESME_RTHROTTLED, 1);
    expect(() => faults.setSubmitError(0, 0.1)).toThrow(RangeError);
    expect(() => faults.setSubmitError(STATUS.ESME_RSYSERR, 1.5)).toThrow(RangeError);
    expect(() => faults.setSubmitError(STATUS.ESME_RSYSERR, NaN)).toThrow(RangeError);
    expect(faults.settings().submitErrors).toEqual([{ status: STATUS.ESME_RTHROTTLED, share: 1 }]);
  });

  it('gives receipts to every part, the first part only, or none', () => {
    const faults = new SimFaults();
    const part = (seq: number) => Buffer.from([0x05, 0x00, 0x03, 0x2a, 0x03, seq]);
    const parts = [null, part(1), part(2), part(3)];
    expect(parts.map((udh) => faults.receiptFor(udh))).toEqual([true, true, true, true]);
    faults.setReceipts('first');
    expect(parts.map((udh) => faults.receiptFor(udh))).toEqual([true, true, false, false]);
    faults.setReceipts('none');
    expect(parts.map((udh) => faults.receiptFor(udh))).toEqual([false, false, false, false]);
    expect(() => faults.setReceipts('some' as 'every')).toThrow(RangeError);
  });

  it('clears every fault', () => {
    const faults = new SimFaults();
    faults.refuseBinds(STATUS.ESME_RBINDFAIL);
    faults.setSubmitError(STATUS.ESME_RTHROTTLED, 0.5);
    faults.queueRefusals(1, STATUS.ESME_RSYSERR);
    faults.setReceipts('none');
    faults.clear();
    expect(faults.settings()).toEqual({ refuseBindsWith: 0, submitErrors: [], receipts: 'every', queuedRefusals: [] });
  });
});

describe(concatenatedPartNumber.name, () => {
  it('reads the part number of 8- and 16-bit concatenation headers, after other elements too', () => {
    expect(concatenatedPartNumber(null)).toBe(1);
    expect(concatenatedPartNumber(Buffer.from([0x05, 0x00, 0x03, 0x01, 0x02, 0x02]))).toBe(2);
    expect(concatenatedPartNumber(Buffer.from([0x06, 0x08, 0x04, 0x12, 0x34, 0x04, 0x03]))).toBe(3);
    // A port-addressing element (IEI 0x05, 4 octets) before the concatenation element.
    expect(concatenatedPartNumber(Buffer.from([0x0b, 0x05, 0x04, 0x0b, 0x84, 0x23, 0xf0, 0x00, 0x03, 0x07, 0x02, 0x02]))).toBe(2);
    // No concatenation element, or one cut short: a single message.
    expect(concatenatedPartNumber(Buffer.from([0x04, 0x05, 0x02, 0x0b, 0x84]))).toBe(1);
    expect(concatenatedPartNumber(Buffer.from([0x03, 0x00, 0x03, 0x01]))).toBe(1);
  });
});
