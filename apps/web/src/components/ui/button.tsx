import { clsx } from 'clsx';
import type { ComponentProps } from 'react';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'confirm';

/** Shared look for buttons and button-like links; every target is at least 44 px tall. */
export function buttonClasses(variant: ButtonVariant = 'primary', extra?: string): string {
  return clsx(
    'inline-flex min-h-11 items-center justify-center gap-2 rounded-xl px-5 text-base font-semibold transition-colors',
    'disabled:cursor-not-allowed disabled:opacity-60',
    variant === 'primary' && 'bg-festive-700 text-cream-50 shadow-sm hover:bg-festive-800',
    variant === 'confirm' && 'bg-pine-700 text-cream-50 shadow-sm hover:bg-pine-800',
    variant === 'secondary' &&
      'border border-cream-300 bg-cream-50 text-ink-900 hover:border-festive-700 hover:text-festive-700',
    variant === 'ghost' && 'text-ink-700 hover:bg-cream-200',
    extra,
  );
}

export function Button({
  variant = 'primary',
  className,
  type = 'button',
  ...props
}: ComponentProps<'button'> & { variant?: ButtonVariant }) {
  return <button type={type} className={buttonClasses(variant, className)} {...props} />;
}
