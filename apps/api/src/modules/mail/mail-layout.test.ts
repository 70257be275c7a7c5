import { describe, expect, it } from 'vitest';
import { framedMailHtml } from './dev-mailbox.view';
import { renderEmail } from './mail-layout';

describe('renderEmail', () => {
  const base = { brandName: 'Kringle', title: 'Your booking', intro: 'Hi <Mary> & co,' };

  it('links the privacy policy of the app the logo comes from, in the HTML and the text', () => {
    const { html, text } = renderEmail({ ...base, logoUrl: 'https://santa.example.com/logo.png' });
    expect(html).toContain('href="https://santa.example.com/privacy"');
    expect(text).toContain('Privacy policy: https://santa.example.com/privacy');
    expect(renderEmail(base).text).not.toContain('Privacy policy');
  });

  it('escapes every interpolated string in the HTML and keeps the text readable', () => {
    const { html, text } = renderEmail({
      ...base,
      brandName: 'Kris "Kringle" <b>',
      action: { label: 'See <it>', url: 'https://kringle.test/b?x=1&y="2"' },
      details: [{ label: 'Ref', value: '<script>alert(1)</script>' }],
      outro: ["Don't reply"],
    });
    expect(html).not.toContain('<Mary>');
    expect(html).toContain('Hi &lt;Mary&gt; &amp; co,');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('Kris &quot;Kringle&quot; &lt;b&gt;');
    expect(html).toContain('href="https://kringle.test/b?x=1&amp;y=%222%22"');
    expect(html).toContain('#a3162a');
    expect(html).not.toContain('#b3261e');
    expect(text).toContain('Hi <Mary> & co,');
    expect(text).toContain('See <it>: https://kringle.test/b?x=1&y=%222%22');
    expect(text).toContain('Ref: <script>alert(1)</script>');
    expect(text).toContain('The Kris "Kringle" <b> team');
  });

  it('refuses non-http action links', () => {
    expect(() => renderEmail({ ...base, action: { label: 'x', url: 'javascript:alert(1)' } })).toThrow(/http/);
  });

  it('frames mail HTML with links opening outside the sandbox', () => {
    expect(framedMailHtml('<html><head><title>x</title></head></html>')).toContain('<head><base target="_blank">');
    expect(framedMailHtml('<p>hi</p>')).toBe('<base target="_blank"><p>hi</p>');
  });
});
