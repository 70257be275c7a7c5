import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SandboxTestCards } from './sandbox-test-cards';

describe('the sandbox payment step (issue 37 item 10)', () => {
  it('lists the test cards and what each does, not only the one that pays', () => {
    render(<SandboxTestCards />);
    const items = within(screen.getByRole('list', { name: 'Test cards' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toEqual([
      '4242 4242 4242 4242 pays',
      '4000 0025 0000 3155 asks for a 3-D Secure check',
      '4000 0000 0000 0002 is declined',
      '4000 0000 0000 9995 is declined: insufficient funds',
    ]);
  });
});
