import { describe, expect, it } from 'vitest';
import { describeFindings, findPersonalData, maskSpans } from './redact.ts';

describe('personal data found by patterns', () => {
  it('finds emails, phones, card numbers and SSNs, and leaves dates and figures alone', () => {
    const text =
      'Mail jane.doe@acme.example or call +44 20 7946 0958 / (555) 123-4567. Card 4111 1111 1111 1111, SSN 123-45-6789. Order 1234 5678 9012 3456 on 2024-05-01, 42 seats, 3.5%.';
    const found = findPersonalData(text).map((m) => [m.kind, m.text]);
    expect(found).toEqual([
      ['email', 'jane.doe@acme.example'],
      ['phone', '+44 20 7946 0958'],
      ['phone', '(555) 123-4567'],
      ['card', '4111 1111 1111 1111'],
      ['ssn', '123-45-6789'],
    ]);
  });

  it('masks keeping every offset, and says what it found', () => {
    const text = 'a x@y.io b';
    const found = findPersonalData(text);
    const masked = maskSpans(text, found);
    expect(masked).toBe('a ██████ b');
    expect(masked.length).toBe(text.length);
    expect(describeFindings([{ kind: 'email' }, { kind: 'email' }, { kind: 'phone' }])).toBe(
      '2 email addresses and 1 phone number',
    );
  });
});
