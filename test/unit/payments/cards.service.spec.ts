import { DomainError } from '../../../src/common/errors/domain-error';
import type { Tx } from '../../../src/database/unit-of-work';
import type { CardsRepository } from '../../../src/payments/cards.repository';
import { CardsService } from '../../../src/payments/cards.service';
import type { PaymentCard } from '../../../src/payments/payment-card.entity';
import type { PaymentProvider } from '../../../src/payments/payment-provider';
import { expectAccount, UnexpectedCall } from '../fakes/strict';

const ACCOUNT = 7;
const TX = {} as Tx;

function card(id: number, last4: string): PaymentCard {
  return { id, accountId: ACCOUNT, provider: 'simulated', paymentMethodId: `pm_${id}`, brand: 'visa', last4, expMonth: 12, expYear: 2030, createdAt: new Date(0), removedAt: null };
}

/** A repository holding one account's saved cards; anything else it is asked is a test failure. */
function cardsRepository(saved: PaymentCard[]): CardsRepository {
  return {
    listSaved: (accountId: number, provider: string) => {
      expectAccount('listSaved', ACCOUNT, accountId);
      if (provider !== 'simulated') throw new UnexpectedCall('listSaved', `provider ${provider}`);
      return Promise.resolve(saved);
    },
  } as unknown as CardsRepository;
}

const provider = { name: 'simulated', real: false } as PaymentProvider;

async function chosen(saved: PaymentCard[], last4: string | undefined): Promise<string> {
  try {
    return (await new CardsService(cardsRepository(saved), provider).choose(ACCOUNT, last4, TX)).last4;
  } catch (err) {
    if (err instanceof DomainError) return `${err.kind}: ${err.message}`;
    throw err;
  }
}

describe(CardsService.name, () => {
  it('charges the one saved card, with or without card_last4 naming it', async () => {
    expect(await chosen([card(1, '4242')], undefined)).toBe('4242');
    expect(await chosen([card(1, '4242')], '4242')).toBe('4242');
    expect(await chosen([card(1, '4242')], '0002')).toBe('invalid: No saved card ends in 0002');
  });

  it('needs card_last4 when several cards are saved, and a card that ends in it', async () => {
    const saved = [card(1, '4242'), card(2, '4444')];
    expect(await chosen(saved, undefined)).toBe('invalid: card_last4 is required when more than one card is saved');
    expect(await chosen(saved, '4444')).toBe('4444');
    expect(await chosen(saved, '1111')).toBe('invalid: No saved card ends in 1111');
  });

  it('refuses when no card is saved', async () => {
    expect(await chosen([], undefined)).toBe('invalid: No saved card on this account');
    expect(await chosen([], '4242')).toBe('invalid: No saved card on this account');
  });
});
