import { clsx } from 'clsx';

/** The brand logo (public/logo.svg; replace the file to rebrand). Decorative when next to the brand name. */
export function Logo({
  brandName,
  className,
  decorative,
}: {
  brandName: string;
  className?: string;
  decorative?: boolean;
}) {
  return (
    <img
      src="/logo.svg"
      alt={decorative ? '' : `${brandName} logo`}
      width={48}
      height={48}
      className={clsx('size-12', className)}
    />
  );
}
