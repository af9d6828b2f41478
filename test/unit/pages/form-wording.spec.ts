import { failure } from '../../../src/common/errors/error-catalogue';
import { fixableFormError } from '../../../src/pages/form-error';
import { pageWordingOf } from '../../../src/pages/form-wording';

describe('the wording a page gives a shared check', () => {
  it('asks for an empty field in the form’s own terms', () => {
    expect(pageWordingOf(failure('required', 'number'))).toBe('Enter a mobile number');
    expect(pageWordingOf(failure('required', 'name'))).toBe('Enter a name');
    expect(pageWordingOf(failure('required', 'card'))).toBe('Choose a card');
    expect(pageWordingOf(failure('required', 'abn'))).toBe('Enter your ABN');
    expect(pageWordingOf(failure('required', 'business_name'))).toBe('Enter the name of your business');
  });

  it('says the Go live page’s ABN texts for the registration check’s, and asks for a whole number of credits', () => {
    expect(pageWordingOf(failure('abnNotDigits'))).toBe('An ABN is 11 digits, such as 51 824 753 556');
    expect(pageWordingOf(failure('abnLength'))).toBe('An ABN is 11 digits, such as 51 824 753 556');
    expect(pageWordingOf(failure('abnChecksum'))).toBe('That is not a valid ABN: its check digits do not match. Check it and try again.');
    expect(pageWordingOf(failure('invalidField', 'credits must be a whole number'))).toBe('Enter a whole number of credits, such as 5000');
  });

  it('says the Quiet hours page’s texts by what the form calls its fields, not by the API’s field names', () => {
    expect(pageWordingOf(failure('quietHoursTimeInvalid', 'allowed_from'))).toBe(
      'Enter the time sending may start as HH:MM on a 24-hour clock, from 00:00 to 24:00, such as 09:00',
    );
    expect(pageWordingOf(failure('quietHoursTimeInvalid', 'allowed_until'))).toBe(
      'Enter the time sending must stop as HH:MM on a 24-hour clock, from 00:00 to 24:00, such as 20:00',
    );
    expect(pageWordingOf(failure('required', 'allowed_until'))).toBe('Enter the time sending must stop, such as 20:00');
    expect(pageWordingOf(failure('quietHoursWindowInvalid'))).toBe('Sending must start before it stops: make the start time earlier than the stop time');
    expect(pageWordingOf(failure('quietHoursDaysInvalid'))).toBe('Tick at least one day on which sending is allowed');
    expect(fixableFormError(failure('quietHoursSkipDatesInvalid'))).toEqual({
      message: 'Write each date with no sending as YYYY-MM-DD on a line of its own, at most 100 dates',
      status: 400,
      field: 'skip_dates',
    });
  });

  it('keeps every other text as the check wrote it, including a required field it has no words for', () => {
    expect(pageWordingOf(failure('required', 'The threshold'))).toBe('The threshold is required');
    expect(pageWordingOf(failure('creditsBelowMinimum'))).toBe('The minimum purchase is 500 credits');
    expect(pageWordingOf(failure('invalidPhoneNumber'))).toBe('Invalid phone number format');
  });

  it('is what a form re-renders with', () => {
    expect(fixableFormError(failure('required', 'list_id'))).toEqual({ message: 'Choose a list', status: 400, field: 'list_id' });
  });
});
