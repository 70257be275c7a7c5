import * as Dialog from '@radix-ui/react-dialog';
import { useRef } from 'react';
import { Link } from 'react-router';
import { CloseIcon } from '../../components/ui/icons';
import { useGetPolicyQuery } from '../../lib/policy-api';
import { HELP_CONTACT, helpFaq, helpPolicy } from './help-content';

/** The help widget: FAQ, booking policy and contact details in a side sheet. */
export function HelpPanel({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  // Opened from the launcher or the tab bar rather than a Dialog.Trigger, so remember the
  // opener ourselves and give focus back to it on close (keyboard users stay in place).
  const opener = useRef<HTMLElement | null>(null);
  // Fetched once the panel opens, then kept in the shared cache.
  const { data: policy, isError: policyError } = useGetPolicyQuery(undefined, { skip: !open });
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-ink-900/40" />
        <Dialog.Content
          aria-describedby={undefined}
          onOpenAutoFocus={() => {
            // Runs before focus moves in, so the active element is still the opener.
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(event) => {
            if (opener.current?.isConnected) {
              event.preventDefault();
              opener.current.focus();
            }
          }}
          className={
            'fixed inset-y-0 right-0 z-50 flex w-full max-w-md flex-col overflow-y-auto bg-cream-50 ' +
            'shadow-2xl focus:outline-none'
          }
        >
          <div
            className={
              'sticky top-0 flex items-center justify-between border-b border-cream-200 bg-cream-50 px-5 ' + 'py-4'
            }
          >
            <Dialog.Title className="font-display text-2xl font-semibold text-ink-900">How can we help?</Dialog.Title>
            <Dialog.Close
              aria-label="Close help"
              className="flex size-11 items-center justify-center rounded-full text-ink-600 hover:bg-cream-200"
            >
              <CloseIcon />
            </Dialog.Close>
          </div>
          <div className="flex flex-col gap-8 px-5 py-6">
            <section aria-labelledby="help-faq">
              <h2 id="help-faq" className="mb-3 text-lg font-semibold text-festive-700">
                Questions families ask
              </h2>
              <ul className="flex flex-col gap-2">
                {helpFaq(policy).map((item) => (
                  <li key={item.question}>
                    <details className="group rounded-xl border border-cream-200 bg-cream-100 px-4 open:bg-cream-50">
                      <summary
                        className={
                          'flex min-h-12 cursor-pointer list-none items-center justify-between gap-3 ' +
                          'py-2 font-medium text-ink-900'
                        }
                      >
                        {item.question}
                        <span aria-hidden="true" className="text-gold-700 transition-transform group-open:rotate-45">
                          +
                        </span>
                      </summary>
                      <p className="pb-4 text-ink-700">{item.answer}</p>
                    </details>
                  </li>
                ))}
              </ul>
            </section>
            <section aria-labelledby="help-policy">
              <h2 id="help-policy" className="mb-3 text-lg font-semibold text-festive-700">
                Booking policy
              </h2>
              {policy ? (
                <ul className="flex list-disc flex-col gap-2 pl-5 text-ink-700 marker:text-gold-500">
                  {helpPolicy(policy).map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              ) : (
                <p role="status" className="text-ink-700">
                  {policyError ? 'We could not load the booking policy just now.' : 'Loading the booking policy…'}
                </p>
              )}
              <Link
                to="/terms_and_conditions"
                className={
                  'mt-3 inline-flex min-h-11 items-center font-medium text-festive-700 underline ' +
                  'underline-offset-4'
                }
              >
                Read the full terms and conditions
              </Link>
            </section>
            <section aria-labelledby="help-contact" className="rounded-2xl bg-pine-50 p-4">
              <h2 id="help-contact" className="mb-2 text-lg font-semibold text-pine-800">
                Contact us
              </h2>
              <p className="text-ink-700">
                Email{' '}
                <a
                  href={`mailto:${HELP_CONTACT.email}`}
                  className="font-medium text-pine-800 underline underline-offset-4"
                >
                  {HELP_CONTACT.email}
                </a>
              </p>
              <p className="text-ink-700">{HELP_CONTACT.hours}</p>
            </section>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
