import { clsx } from 'clsx';

/** Initials in a gold-ringed circle; decorative, so the name beside it carries the meaning. */
export function Avatar({ initials, size = 'md' }: { initials: string; size?: 'sm' | 'md' }) {
  return (
    <span
      aria-hidden="true"
      className={clsx(
        'inline-flex shrink-0 items-center justify-center rounded-full bg-festive-700 font-semibold text-cream-50 ' +
          'ring-2 ring-gold-400',
        size === 'md' ? 'size-11 text-base' : 'size-8 text-sm',
      )}
    >
      {initials}
    </span>
  );
}
