import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ACCESS_CONSENT } from '@kringle/contracts/consent';
import { EMPTY_DETAILS } from '@kringle/contracts/booking-details';
import { DetailsForm } from './details-form';

function setup(props: Partial<Parameters<typeof DetailsForm>[0]> = {}) {
  const onValid = vi.fn();
  render(
    <>
      <DetailsForm id="f" defaultValues={EMPTY_DETAILS} allowsPets={false} onValid={onValid} {...props} />
      <button type="submit" form="f">
        Continue
      </button>
    </>,
  );
  return { onValid, user: userEvent.setup() };
}

describe('DetailsForm', () => {
  it('adds two children with ages and a wheelchair need, and hands over valid details', async () => {
    const { onValid, user } = setup();
    await user.click(screen.getByRole('button', { name: '+ Add a child' }));
    await user.type(screen.getAllByLabelText('First name')[0]!, 'Mia');
    await user.selectOptions(screen.getAllByLabelText('Age')[0]!, '6');
    await user.click(screen.getByRole('button', { name: '+ Add a child' }));
    await user.type(screen.getAllByLabelText('First name')[1]!, 'Leo');
    await user.selectOptions(screen.getAllByLabelText('Age')[1]!, '3');
    await user.click(screen.getByRole('button', { name: 'One more adult' }));
    await user.click(screen.getByLabelText('Wheelchair access'));
    // An access need is health information: the parent's consent is asked beside it.
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Tick the box to agree, or remove the access needs and note.')).toBeInTheDocument();
    expect(onValid).not.toHaveBeenCalled();
    await user.click(screen.getByLabelText(ACCESS_CONSENT.text));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(onValid).toHaveBeenCalledTimes(1));
    expect(onValid.mock.calls[0]![0]).toEqual({
      children: [
        { firstName: 'Mia', age: 6 },
        { firstName: 'Leo', age: 3 },
      ],
      adults: 2,
      pets: 0,
      accessNeeds: ['wheelchair'],
      accessNote: '',
      noteForSanta: '',
      consent: true,
    });
  });

  it(
    'shows no error on a child just added, only once its field is left or the form is sent (issue 53 item ' + '5)',
    async () => {
      const { user } = setup();
      await user.click(screen.getByRole('button', { name: '+ Add a child' }));
      // The field array validates itself on append: nothing typed yet, so nothing is wrong yet.
      await new Promise((r) => setTimeout(r, 50));
      expect(screen.queryByText("Enter the child's first name.")).toBeNull();
      expect(screen.queryByText('Enter an age from 0 to 17.')).toBeNull();
      expect(screen.getAllByLabelText('First name')[0]).not.toHaveAttribute('aria-invalid');
      await user.click(screen.getByRole('button', { name: '+ Add a child' }));
      await new Promise((r) => setTimeout(r, 50));
      // The first row's name field was left empty: that one says so; the age not touched yet, nor the new row.
      expect(screen.getAllByText("Enter the child's first name.")).toHaveLength(1);
      expect(screen.queryByText('Enter an age from 0 to 17.')).toBeNull();
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      expect(await screen.findAllByText('Enter an age from 0 to 17.')).toHaveLength(2);
      expect(screen.getAllByText("Enter the child's first name.")).toHaveLength(2);
    },
  );

  it('shows readable inline errors and does not submit', async () => {
    const { onValid, user } = setup();
    await user.click(screen.getByRole('button', { name: '+ Add a child' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText("Enter the child's first name.")).toBeInTheDocument();
    expect(screen.getByText('Enter an age from 0 to 17.')).toBeInTheDocument();
    expect(screen.getAllByLabelText('First name')[0]).toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: 'Remove child 1' }));
    await user.click(screen.getByRole('button', { name: 'One fewer adult' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Tell us who is coming: at least one child or adult.')).toBeInTheDocument();
    expect(onValid).not.toHaveBeenCalled();
  });

  it('offers pets only on a pet night, and shows the API’s field errors', async () => {
    setup({
      serverErrors: [
        { path: 'body.adults', message: 'At most 4 people fit in the photo (children and adults together).' },
      ],
    });
    expect(screen.queryByText('Pets')).toBeNull();
    expect(
      await screen.findByText('At most 4 people fit in the photo (children and adults together).'),
    ).toBeInTheDocument();
  });

  it('asks no consent without access needs, and none is sent', async () => {
    const { onValid, user } = setup();
    expect(screen.queryByLabelText(ACCESS_CONSENT.text)).toBeNull();
    await user.type(screen.getByLabelText('A note for Santa (optional)'), 'A red bike');
    expect(screen.queryByLabelText(ACCESS_CONSENT.text)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(onValid).toHaveBeenCalled());
    expect(onValid.mock.calls[0]![0]).not.toHaveProperty('consent');
  });

  it('counts pets on a pet night up to 3', async () => {
    const { onValid, user } = setup({ allowsPets: true });
    const more = screen.getByRole('button', { name: 'One more pet' });
    for (let i = 0; i < 3; i++) await user.click(more);
    expect(more).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(onValid).toHaveBeenCalled());
    expect(onValid.mock.calls[0]![0].pets).toBe(3);
  });
});
