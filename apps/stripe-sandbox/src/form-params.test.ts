import { describe, expect, it } from 'vitest';
import { fingerprint, parseFormParams } from './form-params';

describe('parseFormParams', () => {
  it('reads bracket notation, indexed and empty-bracket arrays, and + as space', () => {
    const params = parseFormParams(
      'amount=7500&metadata[bookingId]=b%201&automatic_payment_methods[enabled]=true&expand[0]=latest_charge' +
        '&expand[1]=payment_method&tags[]=a&tags[]=b&description=Photos+with+Santa',
    );
    expect(params).toEqual({
      amount: '7500',
      metadata: { bookingId: 'b 1' },
      automatic_payment_methods: { enabled: 'true' },
      expand: ['latest_charge', 'payment_method'],
      tags: ['a', 'b'],
      description: 'Photos with Santa',
    });
  });

  it('reads percent-encoded brackets and deep nesting', () => {
    expect(parseFormParams('payment_method_data%5Bcard%5D%5Bnumber%5D=4242')).toEqual({
      payment_method_data: { card: { number: '4242' } },
    });
  });

  it('ignores prototype keys and malformed keys', () => {
    const params = parseFormParams('__proto__[x]=1&metadata[__proto__]=2&a]b=3&ok=4');
    expect(params).toEqual({ ok: '4' });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe('fingerprint', () => {
  it('ignores the order of fields but not their values', () => {
    const a = parseFormParams('amount=1&metadata[a]=1&metadata[b]=2');
    const b = parseFormParams('metadata[b]=2&amount=1&metadata[a]=1');
    const c = parseFormParams('metadata[b]=2&amount=2&metadata[a]=1');
    expect(fingerprint(a)).toBe(fingerprint(b));
    expect(fingerprint(a)).not.toBe(fingerprint(c));
  });
});
