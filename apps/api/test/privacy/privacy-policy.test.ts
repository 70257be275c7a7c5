import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * The policy at /privacy (issue 51): the automated decisions (Privacy Act, from 10 December 2026)
 * and the children's notice beside it (Children's Online Privacy Code), with the numbers in force.
 */
describe('the privacy policy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ WAITLIST_OFFER_MINUTES: '25', DETAILS_RETENTION_DAYS: '21' });
  });
  afterAll(async () => t?.close());

  const policy = async () => (await t.app.inject('/api/v1/common/privacy')).json();

  it('says which decisions a program makes, what each uses, and how to ask a person', async () => {
    const p = await policy();
    const section = p.sections.find((s: { heading: string }) => s.heading === 'Decisions our system makes');
    expect(section).toBeDefined();
    const text = section.paragraphs.join('\n');
    for (const decision of ['waiting room', 'draw', 'waitlist', 'held for 10 minutes', 'one session at a time'])
      expect(text).toContain(decision);
    expect(text).toContain('for 25 minutes');
    expect(text).toMatch(/uses only when you joined/);
    expect(text).toMatch(/a person on our team will look at it/);
    expect(text).toContain(p.contactEmail);
  });

  it(
    'has a children’s notice in plain words, with the retention in force, and says photos are never ' + 'public',
    async () => {
      const p = await policy();
      expect(p.childrensNotice.heading).toMatch(/children/i);
      const text = p.childrensNotice.paragraphs.join('\n');
      expect(text).toContain('21 days after your visit');
      expect(text).toMatch(/only your family can see them/);
      const all = p.sections.map((s: { paragraphs: string[] }) => s.paragraphs.join(' ')).join(' ');
      expect(all).toMatch(/never public or indexed/);
      expect(all).toMatch(/lasts 12 months/);
    },
  );
});
