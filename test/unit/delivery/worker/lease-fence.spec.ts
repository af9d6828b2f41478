import { LeaseFence } from '../../../../src/delivery/worker/lease-fence';

describe(LeaseFence.name, () => {
  let now = 0;
  const fence = () => new LeaseFence(1000, () => now);
  beforeEach(() => (now = 10_000));

  it('lets a batch be handed over for three quarters of the timeout after it was listed, with no renewal at all', () => {
    const f = fence();
    const listedAt = f.listed();
    now += 749;
    expect(f.mayHandOver(listedAt)).toBe(true);
    now += 1;
    expect(f.mayHandOver(listedAt)).toBe(false);
  });

  it('counts from when a confirmed renewal was sent, not from when its confirmation came', () => {
    const f = fence();
    const listedAt = f.listed();
    now += 100;
    const confirmed = f.renewalSent();
    now += 600;
    confirmed();
    now += 149;
    expect(f.mayHandOver(listedAt)).toBe(true);
    now += 1;
    expect(f.mayHandOver(listedAt)).toBe(false);
  });

  it('ignores renewals that were never confirmed (PostgreSQL unreachable)', () => {
    const f = fence();
    const listedAt = f.listed();
    for (let i = 0; i < 4; i++) {
      now += 250;
      f.renewalSent();
    }
    expect(f.mayHandOver(listedAt)).toBe(false);
  });

  it('keeps the latest confirmed renewal when confirmations arrive out of order', () => {
    const f = fence();
    const listedAt = f.listed();
    now += 300;
    const older = f.renewalSent();
    now += 300;
    const newer = f.renewalSent();
    newer();
    older();
    now += 749;
    expect(f.mayHandOver(listedAt)).toBe(true);
  });

  it('never again hands over a batch that went unprotected, though a later renewal lists it; a batch listed since is fine', () => {
    const f = fence();
    const listedAt = f.listed();
    // Renewals fail for longer than three quarters of the timeout: the sweeper may take the batch.
    for (let i = 0; i < 4; i++) {
      now += 250;
      f.renewalSent();
    }
    now += 200;
    f.renewalSent()();
    now += 100;
    expect(f.mayHandOver(listedAt)).toBe(false);
    const listedSince = f.listed();
    expect(f.mayHandOver(listedSince)).toBe(true);
  });

  it('protects a batch listed after the last confirmed renewal by its own listing time', () => {
    const f = fence();
    f.renewalSent()();
    now += 5000;
    const listedAt = f.listed();
    now += 700;
    expect(f.mayHandOver(listedAt)).toBe(true);
  });
});
