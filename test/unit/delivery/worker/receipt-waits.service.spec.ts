import type { AppConfig } from '../../../../src/config/app-config';
import type { ReceiptWaitStep, ReceiptWaitsRepository } from '../../../../src/delivery/state/receipt-waits.repository';
import type { DeliveryMetrics } from '../../../../src/delivery/worker/delivery-metrics';
import { ReceiptWaitsService } from '../../../../src/delivery/worker/receipt-waits.service';

/** A repository answering the steps given, in order, and recording what it was asked. */
function fakeWaits(steps: ReceiptWaitStep[]) {
  const calls: Array<[number, number]> = [];
  const repo = {
    closeStep: async (waitMs: number, perStep: number) => {
      calls.push([waitMs, perStep]);
      return steps.shift() ?? { closedByCarrier: {}, more: false };
    },
  };
  return { repo: repo as unknown as ReceiptWaitsRepository, calls };
}

function fakeMetrics() {
  const closed: Array<[number, number]> = [];
  return { metrics: { receiptWaitsClosed: (carrierId: number, parts: number) => void closed.push([carrierId, parts]) } as unknown as DeliveryMetrics, closed };
}

const config = { receiptWaitMs: 7200_000 } as AppConfig;

describe(ReceiptWaitsService.name, () => {
  it('steps while a step says more are due, with the configured wait, and counts closed parts per carrier', async () => {
    const { repo, calls } = fakeWaits([
      { closedByCarrier: { '0': 3000, '2': 2000 }, more: true },
      { closedByCarrier: { '0': 10 }, more: false },
      { closedByCarrier: { '0': 99 }, more: false },
    ]);
    const { metrics, closed } = fakeMetrics();
    await expect(new ReceiptWaitsService(repo, metrics, config).closeDue()).resolves.toBe(5010);
    expect(calls).toEqual([
      [7200_000, 5000],
      [7200_000, 5000],
    ]);
    expect(closed).toEqual([
      [0, 3000],
      [2, 2000],
      [0, 10],
    ]);
  });

  it('stops after a bounded number of steps in one run, leaving the rest to the next', async () => {
    const { repo, calls } = fakeWaits(Array.from({ length: 500 }, () => ({ closedByCarrier: { '0': 1 }, more: true })));
    const { metrics } = fakeMetrics();
    await expect(new ReceiptWaitsService(repo, metrics, config).closeDue()).resolves.toBe(200);
    expect(calls).toHaveLength(200);
  });

  it('lets a failed step fail the run (the periodic runner logs it and runs it again on time)', async () => {
    const repo = { closeStep: async () => Promise.reject(new Error('connection terminated')) } as unknown as ReceiptWaitsRepository;
    await expect(new ReceiptWaitsService(repo, fakeMetrics().metrics, config).closeDue()).rejects.toThrow('connection terminated');
  });
});
