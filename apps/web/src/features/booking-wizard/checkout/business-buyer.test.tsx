import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { BusinessBuyerFields, checkBusiness, draftOf, type BusinessDraft } from './business-buyer';

describe('checkBusiness (issue 51: the ABN checked as the API checks it)', () => {
  it('sends nothing when the box is not ticked, whatever the fields hold', () => {
    expect(checkBusiness({ on: false, name: 'x', abn: '123' })).toEqual({ ok: true, business: null });
  });

  it('sends the name trimmed and the ABN as 11 digits when its checksum holds', () => {
    expect(checkBusiness({ on: true, name: ' Bondi Public School ', abn: '51 824 753 556' })).toEqual({
      ok: true,
      business: { name: 'Bondi Public School', abn: '51824753556' },
    });
  });

  it('refuses an ABN whose checksum fails, and a missing name, each with its own words', () => {
    expect(checkBusiness({ on: true, name: '', abn: '51 824 753 557' })).toEqual({
      ok: false,
      errors: { name: 'Enter the business or school name.', abn: 'That ABN is not valid: check its digits.' },
    });
    expect(checkBusiness({ on: true, name: 'Acme', abn: '5182475' })).toEqual({
      ok: false,
      errors: { abn: 'Enter the ABN: 11 digits.' },
    });
  });

  it('shows a sent business again with its ABN grouped as the ABR shows it', () => {
    expect(draftOf({ name: 'Acme', abn: '51824753556' })).toEqual({ on: true, name: 'Acme', abn: '51 824 753 556' });
    expect(draftOf(null)).toEqual({ on: false, name: '', abn: '' });
  });
});

function Harness({ locked = false }: { locked?: boolean }) {
  const [draft, setDraft] = useState<BusinessDraft>(draftOf(null));
  const check = checkBusiness(draft);
  return (
    <BusinessBuyerFields draft={draft} errors={check.ok ? {} : check.errors} locked={locked} onChange={setDraft} />
  );
}

describe('BusinessBuyerFields', () => {
  it('asks the name and ABN only once ticked, and says beside the ABN why it is refused', async () => {
    render(<Harness />);
    expect(screen.queryByLabelText('ABN')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: 'This is a booking for a business or school' }));
    await userEvent.type(screen.getByLabelText('Business or school name'), 'Bondi Public School');
    await userEvent.type(screen.getByLabelText(/^ABN/), '51 824 753 557');
    expect(screen.getByLabelText(/^ABN/)).toHaveAccessibleDescription(/That ABN is not valid: check its digits\./);
    await userEvent.type(screen.getByLabelText(/^ABN/), '{Backspace}6');
    expect(screen.getByLabelText(/^ABN/)).not.toHaveAttribute('aria-invalid');
  });

  it('cannot be changed once the order is placed', () => {
    render(<Harness locked />);
    expect(screen.getByRole('checkbox', { name: 'This is a booking for a business or school' })).toBeDisabled();
  });
});
