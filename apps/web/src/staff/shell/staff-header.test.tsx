import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StaffHeader } from './staff-header';

/** A screen as wide as `width`: matchMedia answers min-width queries from it. */
function screenOf(width: number) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: width >= Number(/min-width: (\d+)px/.exec(query)?.[1] ?? 0),
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

afterEach(() => vi.unstubAllGlobals());

/** Issue 53 item 11: a manager's header took 345 of 844 px on a phone and wrapped at 1024. */
describe('the staff header', () => {
  it("on a phone, a manager's pages are behind a Menu button: aria-expanded, focus in, Escape out", async () => {
    screenOf(390);
    const go = vi.fn();
    render(
      <>
        <StaffHeader role="manager" page="run-sheet" go={go} email="manager@kringle.test" />
        <main tabIndex={-1}>Page</main>
      </>,
    );
    expect(screen.queryByRole('navigation', { name: 'Staff' })).toBeNull();
    const menu = screen.getByRole('button', { name: 'Menu' });
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    const nav = screen.getByRole('navigation', { name: 'Staff' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual([
      'Run sheet',
      'Check in',
      'Walk-in',
      'Photos',
      'Support',
      'Audit',
      'Disputes',
      'Vouchers',
      'Live',
      'Reports',
      'Promo codes',
      'Closures',
      'Season',
      'Staff',
    ]);
    expect(within(nav).getByRole('link', { name: 'Run sheet' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Sign out everywhere' })).toBeVisible();

    await userEvent.keyboard('{Escape}');
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(menu).toHaveFocus();
    expect(screen.queryByRole('navigation', { name: 'Staff' })).toBeNull();

    // Keyboard: Enter opens, Tab walks the links, Enter chooses one; the menu closes.
    await userEvent.keyboard('{Enter}');
    await userEvent.tab();
    expect(screen.getByRole('link', { name: 'Check in' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(go).toHaveBeenCalledWith('check-in');
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    await vi.waitFor(() => expect(screen.getByRole('main')).toHaveFocus());
  });

  it('closes on a click outside', async () => {
    screenOf(390);
    render(
      <>
        <StaffHeader role="set" page="run-sheet" go={vi.fn()} email="elf@kringle.test" />
        <p>Outside</p>
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Menu' }));
    expect(screen.getByRole('navigation', { name: 'Staff' })).toBeVisible();
    await userEvent.click(screen.getByText('Outside'));
    expect(screen.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('where they fit, the pages are on the header line and the menu holds the account', async () => {
    screenOf(1280);
    render(<StaffHeader role="manager" page="season" go={vi.fn()} email="manager@kringle.test" />);
    expect(
      within(screen.getByRole('navigation', { name: 'Staff' })).getByRole('link', { name: 'Season' }),
    ).toHaveAttribute('aria-current', 'page');
    await userEvent.click(screen.getByRole('button', { name: 'Menu' }));
    expect(screen.getAllByRole('navigation', { name: 'Staff' })).toHaveLength(1);
    expect(screen.getByText('Signed in as manager@kringle.test')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Sign out everywhere' })).toHaveFocus();
  });
});
