import { toast } from 'sonner';
import { vi } from 'vitest';
import { customerToken, testUser } from './auth-test-support';

// Shared by verify-email-page.test.tsx (the wording and Resend) and verify-email-page-account.test.tsx (Verify,
// changing the address and Back to login). Each test file mocks 'sonner' itself: vi.mock is hoisted per file.

export const signedIn = { user: testUser, idToken: customerToken, expiresAt: '2099-01-01T00:00:00.000Z' };

/** A fresh tab for each test: no send noted, no analytics recorded, no toast shown yet. */
export function freshTab() {
  window.sessionStorage.clear();
  window.__kringleAnalytics = [];
  vi.mocked(toast.error).mockClear();
  vi.mocked(toast.success).mockClear();
}
