import { analyseMessage } from '../../../src/common/sms';
import { confirmationText } from '../../../src/sender-identity/own-mobile/confirmation-text';

describe(confirmationText.name, () => {
  const link = 'https://dash.example.com.au/senders/confirm/AbCdEfGhIjKlMnOpQrStUv';

  it('names the account and carries the link', () => {
    expect(confirmationText('Harbour Bakery', link)).toBe(
      `Harbour Bakery asked to send SMS from this number. To allow it, open ${link} (valid 24 hours). If you did not expect this, ignore this message.`,
    );
  });

  it('cuts a long account name, so the text stays at two GSM-7 parts', () => {
    const text = confirmationText('The Very Long Name of a Business Pty Ltd', link);
    expect(text.startsWith('The Very Long Name of a Bus... asked')).toBe(true);
    expect(analyseMessage(text, true)).toEqual({ encoding: 'gsm7', parts: 2 });
    expect(analyseMessage(confirmationText('A'.repeat(30), link), false)).toEqual({ encoding: 'gsm7', parts: 2 });
  });
});
