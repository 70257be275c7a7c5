import { actionModeSchema } from '@kringle/contracts/accounts';
import { useSearchParams } from 'react-router';
import { ActionLinkProblem } from './action-link-problem';
import { ResetPasswordAction } from './reset-password-action';
import { VerifyEmailAction } from './verify-email-action';

/**
 * /verify (spec §2): the handler for e-mail action links, open whether signed in or not.
 * `{origin}/verify?mode=verifyEmail|resetPassword&oobCode=…` (API.md).
 */
export function VerifyActionPage() {
  const [params] = useSearchParams();
  const mode = actionModeSchema.safeParse(params.get('mode'));
  const oobCode = params.get('oobCode')?.trim() ?? '';
  if (!mode.success || !oobCode)
    return <ActionLinkProblem problem="incomplete" mode={mode.success ? mode.data : null} />;
  // Keyed by the code so a second link opened in the same tab starts from scratch.
  return mode.data === 'verifyEmail' ? (
    <VerifyEmailAction key={oobCode} oobCode={oobCode} />
  ) : (
    <ResetPasswordAction key={oobCode} oobCode={oobCode} />
  );
}
