import { checkRegistration } from '../../../src/sender-identity/registrations/registration-input';

const VALID = { sender: 'MyBrand', businessName: 'Harbour Bakery Pty Ltd', abn: '51 824 753 556', reason: 'Order notices' };

describe(checkRegistration.name, () => {
  it('answers the cleaned registration with its brand key', () => {
    expect(checkRegistration({ ...VALID, sender: ' My Brand ', businessName: ' Harbour   Bakery ' })).toEqual({
      sender: 'My Brand',
      brandKey: 'MYBRAND',
      businessName: 'Harbour Bakery',
      abn: '51824753556',
      reason: 'Order notices',
    });
  });

  it.each([
    [{ sender: '' }, 'sender is required'],
    [{ sender: 'AB' }, 'sender must be 3 to 11 characters'],
    [{ sender: 'My_Brand' }, 'sender may contain only letters, digits and spaces'],
    [{ sender: '0412345678' }, 'sender must contain at least one letter'],
    [{ businessName: ' ' }, 'business_name is required'],
    [{ businessName: 'x'.repeat(201) }, 'business_name must be at most 200 characters'],
    [{ abn: '' }, 'abn is required'],
    [{ abn: '51 824 753 55' }, 'abn must be 11 digits'],
    [{ abn: '51 824 753 5S6' }, 'abn must contain only digits'],
    [{ abn: '51 824 753 557' }, 'abn is not a valid ABN: its check digits do not match'],
    [{ reason: '' }, 'reason is required'],
    [{ reason: 'x'.repeat(1001) }, 'reason must be at most 1000 characters'],
    // Fields are checked in order: the first failure is the answer.
    [{ sender: 'AB', abn: 'x' }, 'sender must be 3 to 11 characters'],
  ])('%j → %s', (change, text) => {
    expect(() => checkRegistration({ ...VALID, ...change })).toThrow(text);
  });
});
