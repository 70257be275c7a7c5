import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button';
import { Logo } from '../../components/ui/logo';
import { useAppSelector } from '../hooks';

/** The unknown-path page (spec §2 `*`): open to everyone, signed in or not. */
export function NotFoundPage({ brandName }: { brandName: string }) {
  // A guest has no bookings to go to: offer the way in instead.
  const signedIn = useAppSelector((state) => state.auth.user !== null);
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-6 bg-cream-100 px-6 py-12 text-center">
      <Logo brandName={brandName} className="size-16" />
      <p className="text-sm font-semibold tracking-[0.2em] text-gold-700">ERROR 404</p>
      <h1 className="text-3xl font-semibold text-ink-900 sm:text-4xl">We can&apos;t find that page</h1>
      <p className="max-w-md text-ink-700">
        The link may be old or mistyped. Santa&apos;s elves have checked twice, and it isn&apos;t here.
      </p>
      {signedIn ? (
        <Link to="/bookings" className={buttonClasses('primary')}>
          Go to my bookings
        </Link>
      ) : (
        <Link to="/login" className={buttonClasses('primary')}>
          Sign in to book
        </Link>
      )}
    </main>
  );
}
