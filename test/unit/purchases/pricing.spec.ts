import { creditUnitPrice, dollars, gstOn, priceCredits, withGst } from '../../../src/purchases/pricing';

describe('priceCredits', () => {
  // Every tier edge (supplement: 500–999 4¢, 1,000–9,999 3.5¢, 10,000–99,999 3¢, 100,000–999,999 2.5¢, 1,000,000+ 2¢).
  it.each([
    [500, 2000, 200, 2200],
    [999, 3996, 400, 4396],
    [1000, 3500, 350, 3850],
    [1001, 3504, 350, 3854], // 3503.5¢ rounds half up to 3504¢
    [9999, 34997, 3500, 38497], // 34996.5¢ → 34997¢; GST 3499.7¢ → 3500¢
    [10_000, 30000, 3000, 33000],
    [99_999, 299997, 30000, 329997], // GST 29999.7¢ → 30000¢
    [100_000, 250000, 25000, 275000],
    [999_999, 2499998, 250000, 2749998], // 2499997.5¢ → 2499998¢; GST 249999.8¢ → 250000¢
    [1_000_000, 2000000, 200000, 2200000],
    [10_000_000, 20000000, 2000000, 22000000],
  ])('prices %i credits at %i¢ ex GST + %i¢ GST = %i¢', (credits, ex, gst, inc) => {
    expect(priceCredits(credits)).toEqual({ exGstCents: ex, gstCents: gst, incGstCents: inc });
  });

  it('uses the tier of the quantity', () => {
    expect([499, 500, 999, 1000, 9999, 10_000, 99_999, 100_000, 999_999, 1_000_000].filter((n) => n >= 500).map(creditUnitPrice)).toEqual([40, 40, 35, 35, 30, 30, 25, 25, 20]);
    expect(() => creditUnitPrice(499)).toThrow(RangeError);
  });
});

describe('gstOn', () => {
  it('is 10% rounded to the cent, half a cent up', () => {
    expect([0, 1, 4, 5, 6, 14, 15, 2004, 2005, 12000].map(gstOn)).toEqual([0, 0, 0, 1, 1, 1, 2, 200, 201, 1200]);
    expect(withGst(12000)).toEqual({ exGstCents: 12000, gstCents: 1200, incGstCents: 13200 });
  });
});

describe('dollars', () => {
  it('formats cents with two decimals', () => {
    expect([0, 5, 1150, 3850, 100000].map(dollars)).toEqual(['0.00', '0.05', '11.50', '38.50', '1000.00']);
  });
});
