/**
 * Reads a JWT's payload without verifying it. The client only uses claims for UX decisions
 * (refusing staff early, knowing when to refresh); the API verifies every token itself.
 */
function decodeJwtPayload(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const base64 = part
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(part.length / 4) * 4, '=');
    const json = new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
    const payload: unknown = JSON.parse(json);
    return payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function isStaffToken(token: string): boolean {
  return decodeJwtPayload(token)?.dashboard_user === true;
}
