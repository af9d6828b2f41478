/** How a simulated card behaves: Stripe's documented test cards, reproduced by the simulated provider. */
export type TestCardBehaviour = 'succeeds' | 'declined' | 'insufficient_funds' | 'held';

export interface TestCard {
  number: string;
  brand: string;
  behaviour: TestCardBehaviour;
}

export const TEST_CARDS: readonly TestCard[] = [
  { number: '4242424242424242', brand: 'visa', behaviour: 'succeeds' },
  { number: '5555555555554444', brand: 'mastercard', behaviour: 'succeeds' },
  { number: '4000000000000002', brand: 'visa', behaviour: 'declined' },
  { number: '4000000000009995', brand: 'visa', behaviour: 'insufficient_funds' },
  { number: '4000000000009235', brand: 'visa', behaviour: 'held' },
];

/** The test card with this number (spaces and dashes ignored), or null. */
export function testCard(input: string): TestCard | null {
  const digits = input.replace(/[\s-]/g, '');
  return TEST_CARDS.find((c) => c.number === digits) ?? null;
}

export const TEST_CARD_LIST = TEST_CARDS.map((c) => `${c.number} (${c.behaviour})`).join(', ');
